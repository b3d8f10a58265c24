// Allow-list entries: addresses and CIDR ranges of both families, normalised on the way in, matched in the same
// family after unmapping IPv4-mapped IPv6; anything else is refused as an entry.
import { clientAddress, isAllowed, normaliseEntry } from './ip-allow.js';

test('entries are normalised: range to its network, IPv6 to RFC 5952, IPv4-mapped to IPv4', () => {
  expect(normaliseEntry('203.0.113.7')).toBe('203.0.113.7');
  expect(normaliseEntry('203.0.113.7/24')).toBe('203.0.113.0/24');
  expect(normaliseEntry('10.0.0.0/8')).toBe('10.0.0.0/8');
  expect(normaliseEntry('0.0.0.0/0')).toBe('0.0.0.0/0');
  expect(normaliseEntry('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
  expect(normaliseEntry('2001:db8:abcd::1/48')).toBe('2001:db8:abcd::/48');
  expect(normaliseEntry('::/0')).toBe('::/0');
  expect(normaliseEntry('::ffff:192.0.2.1')).toBe('192.0.2.1');
  expect(normaliseEntry('::ffff:192.0.2.0/120')).toBe('192.0.2.0/24');
});

test('what is not an address or a range is refused', () => {
  for (const bad of [
    '',
    '10.0.0.300',
    '127.1',
    '0x7f.0.0.1',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/a',
    '2001:db8::/129',
    'fe80::1%eth0',
    'example.com',
    '1.2.3.4/8/8',
    '::ffff:1.2.3.4/95x',
  ]) {
    expect({ bad, value: normaliseEntry(bad) }).toEqual({ bad, value: null });
  }
});

test("matching: empty list allows all; ranges and addresses of the caller's family; mapped callers unmapped", () => {
  expect(isAllowed([], '198.51.100.1')).toBe(true);
  const list = ['203.0.113.0/24', '198.51.100.7', '2001:db8::/32'];
  expect(isAllowed(list, '203.0.113.200')).toBe(true);
  expect(isAllowed(list, '203.0.114.1')).toBe(false);
  expect(isAllowed(list, '198.51.100.7')).toBe(true);
  expect(isAllowed(list, '198.51.100.8')).toBe(false);
  expect(isAllowed(list, '2001:db8:1::5')).toBe(true);
  expect(isAllowed(list, '2001:db9::5')).toBe(false);
  expect(isAllowed(list, '::ffff:203.0.113.9')).toBe(true);
  expect(isAllowed(['::/0'], '203.0.113.9')).toBe(false);
  expect(isAllowed(['0.0.0.0/0'], '2001:db8::1')).toBe(false);
  expect(isAllowed(list, 'garbage')).toBe(false);
  expect(clientAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
  expect(clientAddress('2001:0db8::0001')).toBe('2001:db8::1');
});
