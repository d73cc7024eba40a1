/**
 * The HTTP side of webhook delivery: the SSRF guard and one signed POST.
 *
 * Destinations on loopback, private, link-local, CGNAT, multicast, reserved and unspecified
 * addresses are refused (unless WEBHOOK_ALLOW_PRIVATE=1). A hostname is resolved once with
 * `dns.lookup(all)`, every address is checked, and the connection is made to exactly those
 * checked addresses (a lookup function that returns them), so a second, different DNS answer
 * cannot slip a private address in between check and connect (DNS rebinding). This is why the
 * sender uses node:http(s) rather than fetch: fetch cannot pin the resolved address. Redirects
 * are never followed: a 3xx answer is a failed attempt.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer is kept in `last_error`. */
const ERROR_BODY_CHARS = 200;

type Range = { bytes: number[]; bits: number; reason: string };

const v4 = (cidr: string, reason: string): Range => {
  const [addr, bits] = cidr.split('/') as [string, string];
  return { bytes: parseIPv4(addr) as number[], bits: Number(bits), reason };
};
const v6 = (cidr: string, reason: string): Range => {
  const [addr, bits] = cidr.split('/') as [string, string];
  return { bytes: parseIPv6(addr) as number[], bits: Number(bits), reason };
};

const BLOCKED_V4: Range[] = [
  v4('0.0.0.0/8', 'an unspecified ("this network")'),
  v4('10.0.0.0/8', 'a private'),
  v4('100.64.0.0/10', 'a carrier-grade NAT (CGNAT)'),
  v4('127.0.0.0/8', 'a loopback'),
  v4('169.254.0.0/16', 'a link-local'),
  v4('172.16.0.0/12', 'a private'),
  v4('192.0.0.0/24', 'a reserved (IETF protocol assignments)'),
  v4('192.0.2.0/24', 'a documentation'),
  v4('192.88.99.0/24', 'a reserved (6to4 relay)'),
  v4('192.168.0.0/16', 'a private'),
  v4('198.18.0.0/15', 'a benchmarking'),
  v4('198.51.100.0/24', 'a documentation'),
  v4('203.0.113.0/24', 'a documentation'),
  v4('224.0.0.0/4', 'a multicast'),
  v4('240.0.0.0/4', 'a reserved or broadcast'),
];

const BLOCKED_V6: Range[] = [
  v6('::/128', 'an unspecified'),
  v6('::1/128', 'a loopback'),
  v6('::/96', 'an IPv4-compatible (deprecated)'),
  v6('64:ff9b:1::/48', 'a local-use NAT64'),
  v6('100::/64', 'a discard-only'),
  v6('2001::/32', 'a Teredo'),
  v6('2001:db8::/32', 'a documentation'),
  v6('fc00::/7', 'a unique local (private)'),
  v6('fe80::/10', 'a link-local'),
  v6('fec0::/10', 'a site-local'),
  v6('ff00::/8', 'a multicast'),
];

function inRange(bytes: number[], range: Range): boolean {
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] as number) & mask) !== ((range.bytes[i] as number) & mask)) return false;
  }
  return true;
}

export function parseIPv4(address: string): number[] | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

/** 16 bytes of an IPv6 address (`::` shorthand, embedded dotted quad, zone id ignored). */
export function parseIPv6(address: string): number[] | null {
  let a = address.replace(/^\[|\]$/g, '');
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  let tail: number[] = [];
  const lastColon = a.lastIndexOf(':');
  if (a.slice(lastColon + 1).includes('.')) {
    const quad = parseIPv4(a.slice(lastColon + 1));
    if (!quad) return null;
    tail = quad;
    a = `${a.slice(0, lastColon + 1)}0:0`;
  }
  const halves = a.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0] as string);
  const rest = halves.length === 2 ? groups(halves[1] as string) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  const bytes: number[] = [];
  for (const g of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    const n = Number.parseInt(g, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function v4Reason(bytes: number[]): string | null {
  return BLOCKED_V4.find((r) => inRange(bytes, r))?.reason ?? null;
}

/**
 * Why a destination address is refused, or null when it is a public address. IPv4 addresses
 * carried inside IPv6 (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are
 * judged by the IPv4 address they carry.
 */
export function blockedReason(address: string): string | null {
  const family = isIP(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (family === 4) return v4Reason(parseIPv4(address) as number[]);
  if (family !== 6) return 'not an IP';
  const b = parseIPv6(address);
  if (!b) return 'not an IP';
  const isMapped = b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  const isNat64 = inRange(b, { bytes: parseIPv6('64:ff9b::') as number[], bits: 96, reason: '' });
  if (isMapped || isNat64) return v4Reason(b.slice(12, 16));
  if (b[0] === 0x20 && b[1] === 0x02) return v4Reason(b.slice(2, 6));
  return BLOCKED_V6.find((r) => inRange(b, r))?.reason ?? null;
}

export class DestinationRefused extends Error {
  override name = 'DestinationRefused';
}

function refuse(host: string, address: string, reason: string): never {
  const shown = host === address ? address : `${host} (${address})`;
  throw new DestinationRefused(`Destination refused: ${shown} is ${reason} address`);
}

/**
 * Resolves the URL's host and checks every address. Returns the addresses to connect to, or
 * null for an IP literal (nothing to resolve). Throws DestinationRefused when a check fails.
 */
export async function resolveDestination(url: URL, allowPrivate: boolean): Promise<LookupAddress[] | null> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const reason = allowPrivate ? null : blockedReason(host);
    if (reason) refuse(host, host, reason);
    return null;
  }
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, found) => (err ? reject(err) : resolve(found))),
  );
  if (addresses.length === 0) throw new Error(`DNS lookup of ${host} returned no address`);
  if (!allowPrivate) {
    for (const a of addresses) {
      const reason = blockedReason(a.address);
      if (reason) refuse(host, a.address, reason);
    }
  }
  return addresses;
}

/** A lookup function that answers with the addresses already resolved and checked. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
    const first = usable[0];
    if (!first) {
      callback(Object.assign(new Error('no address of the requested family'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if ((options as { all?: boolean }).all) (callback as (e: null, a: LookupAddress[]) => void)(null, usable);
    else callback(null, first.address, first.family);
  };
}

export interface SendResult {
  ok: boolean;
  /** The receiver's HTTP status; null when no answer came. */
  statusCode: number | null;
  /** Why the attempt failed; null on success. */
  error: string | null;
}

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivate: boolean;
  timeoutMs?: number;
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: unknown };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || e?.code === 'ABORT_ERR') {
    return `No answer within ${timeoutMs / 1000} s`;
  }
  if (e instanceof DestinationRefused) return e.message;
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN') return `DNS lookup failed (${e.code})`;
  if (e?.code) return `Connection failed (${e.code})`;
  return `Connection failed (${e?.message ?? String(err)})`.slice(0, 500);
}

/**
 * Sends one POST and reports the outcome; never throws. 2xx is success; any other status,
 * including a redirect, is a failure with its status code.
 */
export async function send(opts: SendOptions): Promise<SendResult> {
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    return { ok: false, statusCode: null, error: 'The endpoint URL is invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, statusCode: null, error: `Unsupported protocol ${url.protocol}` };
  }
  const signal = AbortSignal.timeout(timeoutMs);
  let addresses: LookupAddress[] | null;
  try {
    // the timeout covers the DNS lookup too
    const aborted = new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
    );
    aborted.catch(() => {});
    addresses = await Promise.race([resolveDestination(url, opts.allowPrivate), aborted]);
  } catch (err) {
    return { ok: false, statusCode: null, error: describe(err, timeoutMs) };
  }
  if (signal.aborted) return { ok: false, statusCode: null, error: describe(signal.reason, timeoutMs) };

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
        signal,
        // a fresh agent per request: no pooled socket outlives the attempt
        agent: false,
        ...(addresses ? { lookup: pinnedLookup(addresses) } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < ERROR_BODY_CHARS) text += chunk;
        });
        const done = () => {
          if (status >= 200 && status < 300) return finish({ ok: true, statusCode: status, error: null });
          const snippet = text.replace(/\s+/g, ' ').trim().slice(0, ERROR_BODY_CHARS);
          const what = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
          finish({ ok: false, statusCode: status, error: `HTTP ${status}${what}${snippet ? `: ${snippet}` : ''}` });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', (err) =>
          // the status arrived; a broken body only matters for a failure's message
          status >= 200 && status < 300
            ? done()
            : finish({ ok: false, statusCode: status, error: describe(err, timeoutMs) }),
        );
      },
    );
    req.on('error', (err) => finish({ ok: false, statusCode: null, error: describe(err, timeoutMs) }));
    req.end(opts.body);
  });
}
