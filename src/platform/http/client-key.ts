/**
 * The key a client address is counted under by every throttle and rate limit (issue 26). An IPv6
 * client is counted by its /64: one subscriber, host or data-centre customer usually holds a whole
 * /64 and can send from any of its 2^64 addresses, so counting each address alone let one client
 * rotate past every limit. An IPv4 address counts alone, also when it arrives IPv4-mapped
 * (`::ffff:a.b.c.d`, as a dual-stack socket reports IPv4 peers). Anything that is not an address
 * (an `X-Forwarded-For` value under `TRUST_PROXY=true` is taken as sent) is its own key.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** Eight 16-bit groups of a valid IPv6 address (zone removed), or null. */
function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.toLowerCase();
  // an embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) becomes two groups
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const groups = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

/**
 * `clientKey('2001:db8:1:2:aaaa::1')` → `2001:db8:1:2::/64`; `clientKey('::ffff:192.0.2.1')` →
 * `192.0.2.1`; an IPv4 address as it is. Different spellings of one /64 give one key.
 */
export function clientKey(ip: string): string {
  const address = ip.trim();
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address.replace(/%.*$/, ''));
  if (!groups) return address;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return `${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`;
  }
  return `${[g0, g1, g2, g3].map((g) => g.toString(16)).join(':')}::/64`;
}
