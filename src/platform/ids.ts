/**
 * Prefixed, time-sortable ids (docs/ARCHITECTURE.md): `<prefix>_<10 chars time><16 chars random>` in
 * Crockford base32, so ids sort by creation time and carry 80 random bits.
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
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

let lastTime = 0;
let lastRandom: number[] = [];

/**
 * Random bytes for ids, drawn from the CSPRNG 4 KiB at a time (as node:crypto's randomUUID
 * does): one call per 256 ids instead of one per id, which showed in the checkout's profile.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function random16(): Buffer {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + 16);
  poolOffset += 16;
  return bytes;
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

/** 16 base32 digits; within one millisecond the value increments so ids stay monotonic. */
function randomPart(now: number): string {
  if (now === lastTime && lastRandom.length === 16) {
    for (let i = 15; i >= 0; i--) {
      const d = (lastRandom[i] as number) + 1;
      if (d < 32) {
        lastRandom[i] = d;
        break;
      }
      lastRandom[i] = 0;
    }
  } else {
    const bytes = random16();
    lastRandom = Array.from(bytes, (b) => b & 31);
    // keep headroom so the increment above practically never overflows
    lastRandom[0] = (lastRandom[0] as number) & 15;
    lastTime = now;
  }
  return lastRandom.map((d) => ALPHABET[d]).join('');
}

export function newId(kind: IdKind): string {
  const now = Date.now();
  return `${ID_PREFIXES[kind]}_${encodeTime(now)}${randomPart(now)}`;
}

/** A random secret with the given prefix: 32 bytes (256 bits), base64url. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}
