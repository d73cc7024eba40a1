/**
 * Prefixed, time-sortable ids (docs/ARCHITECTURE.md): `<prefix>_<10 chars time><16 chars random>` in
 * Crockford base32, so ids sort by creation time; each carries at least 64 fresh random bits
 * (`idMaker`), so no id can be guessed from another.
 */
import { randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export const ID_PREFIXES = {
  shop: 'shop',
  user: 'usr',
  session: 'ses',
  accountToken: 'atok',
  apiToken: 'tokid',
  publishableKey: 'pkid',
  customer: 'cus',
  product: 'prod',
  priceChange: 'pchg',
  variant: 'var',
  image: 'img',
  category: 'cat',
  brand: 'brand',
  supplier: 'sup',
  channel: 'chan',
  domain: 'dom',
  plan: 'plan',
  abo: 'abo',
  aboEvent: 'aev',
  order: 'ord',
  checkoutSession: 'cs',
  invoice: 'inv',
  creditNote: 'cn',
  refund: 'ref',
  vendor: 'ven',
  affiliate: 'aff',
  event: 'evt',
  job: 'job',
  email: 'eml',
  delivery: 'dlv',
  payout: 'po',
  statement: 'stmt',
  ledger: 'led',
  earning: 'earn',
  commissionRule: 'vrule',
  affiliateContent: 'acnt',
  shippingMethod: 'ship',
  savedView: 'view',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/**
 * Random bytes for ids, drawn from the CSPRNG 4 KiB at a time (as node:crypto's randomUUID
 * does): one call per couple of hundred ids instead of one per id, which showed in the checkout's
 * profile. The bytes handed out are never handed out again.
 */
const pool = new Uint8Array(4096);
let poolOffset = pool.length;

function poolByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++] as number;
}

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

const RANDOM_DIGITS = 16; // 80 bits
const STEP_DIGITS = 13; // the increment within a millisecond: 64 bits (4 + 12 × 5)
/** A clock step back up to this long keeps counting on from the last id (monotonic); a longer one starts afresh. */
const MAX_BACKSTEP_MS = 1000;

/**
 * Makes ids' time and random parts: `<10 digits milliseconds><16 digits random>`, monotonic within
 * the process (issue 26). The first id of a millisecond draws 79 random bits (the top bit clear, for
 * headroom); every further id of that millisecond adds a fresh random step of 1 … 2^64 to the last
 * one, so it sorts after it yet carries 64 new random bits: knowing one id does not tell the next,
 * whatever its kind (they share the counter). Before, the step was 1 and a concurrent shopper's
 * `cs_…` id was the previous id + 1. Should the 80 bits run out within one millisecond (more than
 * 2^15 ids in it, at worst), the ids go on in the next millisecond. Exported for its test, which
 * injects the clock and the random source.
 */
export function idMaker(now: () => number = Date.now, randomByte: () => number = poolByte) {
  let lastTime = -1;
  let timeDigits = '';
  const digits: number[] = new Array(RANDOM_DIGITS).fill(0);

  const fresh = (time: number) => {
    for (let i = 0; i < RANDOM_DIGITS; i++) digits[i] = randomByte() & 31;
    digits[0] = (digits[0] as number) & 15;
    if (time !== lastTime) timeDigits = encodeTime(time);
    lastTime = time;
  };

  /** Adds a random step in [1, 2^64]; false when the sum does not fit 80 bits (then `fresh` follows). */
  const step = (): boolean => {
    let carry = 1;
    for (let i = RANDOM_DIGITS - 1; i >= 0; i--) {
      const k = i - (RANDOM_DIGITS - STEP_DIGITS);
      const add = k < 0 ? 0 : randomByte() & (k === 0 ? 15 : 31);
      const d = (digits[i] as number) + add + carry;
      digits[i] = d & 31;
      carry = d >> 5;
    }
    return carry === 0;
  };

  return (): string => {
    const t = now();
    if (lastTime >= 0 && t <= lastTime && lastTime - t <= MAX_BACKSTEP_MS) {
      if (!step()) fresh(lastTime + 1);
    } else {
      fresh(t);
    }
    let out = timeDigits;
    for (const d of digits) out += ALPHABET[d];
    return out;
  };
}

const nextIdBody = idMaker();

/** `<prefix>_<26 digits>`: time-sortable (monotonic within the process), 64 or more fresh random bits each. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${nextIdBody()}`;
}

/** A random secret with the given prefix: 32 bytes (256 bits), base64url. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}
