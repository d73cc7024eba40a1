/** clientKey (issue 26): IPv6 clients count by their /64, IPv4 (also IPv4-mapped) by the address. */
import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key.js';

describe('clientKey', () => {
  it('keeps an IPv4 address', () => {
    expect(clientKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('127.0.0.1')).toBe('127.0.0.1');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address, in either spelling', () => {
    expect(clientKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('::FFFF:198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('::ffff:c633:6407')).toBe('198.51.100.7');
    expect(clientKey('0:0:0:0:0:ffff:c633:6407')).toBe('198.51.100.7');
  });

  it('counts an IPv6 address by its /64, whatever the spelling', () => {
    const key = '2001:db8:1:2::/64';
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0000:0000:0000:0001',
      '2001:db8:1:2:aaaa:bbbb:cccc:dddd',
      '2001:db8:1:2:0:0:0:9',
      '2001:db8:1:2::c000:201', // trailing groups in hex …
      '2001:db8:1:2::192.0.2.1', // … or as a dotted tail
      '2001:db8:1:2::1%eth0', // a zone is dropped
    ]) {
      expect(clientKey(ip), ip).toBe(key);
    }
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves what is not an address as it is', () => {
    expect(clientKey('unknown')).toBe('unknown');
    expect(clientKey('2001:db8::1::2')).toBe('2001:db8::1::2');
    expect(clientKey('')).toBe('');
  });
});
