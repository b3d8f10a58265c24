// The outbound address rules: every special range refused, IPv4 carried inside IPv6 judged as IPv4.
import { isReachableAddress } from './addresses.js';
import { outboundUrlProblem } from './url.js';

const loopbackOrPrivate = [
  '127.0.0.1',
  '10.1.2.3',
  '172.16.0.1',
  '192.168.0.1',
  '169.254.169.254',
  '100.64.0.1',
  '192.0.0.8',
  '198.18.0.1',
  '::1',
  'fe80::1',
  'fc00::1',
  'fd12::1',
  'fec0::1',
  // IPv4-mapped, IPv4-compatible (::/96), SIIT and NAT64 forms of loopback and private addresses.
  '::ffff:127.0.0.1',
  '::127.0.0.1',
  '::7f00:1',
  '::10.0.0.1',
  '::ffff:0:127.0.0.1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::a00:1',
  // Tunnels and documentation or benchmarking prefixes.
  '2002:7f00:1::',
  '2001::1',
  '2001:db8::1',
  '2001:2::1',
  '64:ff9b:1::1',
  '100::1',
];
const never = ['0.0.0.0', '::', '224.0.0.1', '255.255.255.255', 'ff02::1', '::ffff:0.0.0.0', '64:ff9b::e000:1', 'not an address', ''];
const publicOnes = ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '[2606:4700::1111]'];

test.each(loopbackOrPrivate)('%s is refused unless private targets are allowed', (address) => {
  expect(isReachableAddress(address, false)).toBe(false);
  expect(isReachableAddress(address, true)).toBe(true);
});

test.each(never)('%s is refused whatever the policy', (address) => {
  expect(isReachableAddress(address, false)).toBe(false);
  expect(isReachableAddress(address, true)).toBe(false);
});

test.each(publicOnes)('%s is reachable', (address) => {
  expect(isReachableAddress(address, false)).toBe(true);
});

test('URLs: scheme by policy, no credentials, literal hosts by address (in any spelling the URL parser accepts)', () => {
  const strict = { allowHttp: false, allowPrivate: false };
  expect(outboundUrlProblem(new URL('http://example.com/'), strict)).toBe('must be an https URL');
  expect(outboundUrlProblem(new URL('http://example.com/'), { ...strict, allowHttp: true })).toBeNull();
  expect(outboundUrlProblem(new URL('https://a:b@example.com/'), strict)).toBe('must not carry a user name or password');
  for (const host of ['127.1', '2130706433', '0x7f.0.0.1', '[::127.0.0.1]', '[::ffff:7f00:1]']) {
    expect(outboundUrlProblem(new URL(`https://${host}/`), strict)).toMatch(/must not point/);
  }
  expect(outboundUrlProblem(new URL('https://localhost./'), strict)).toMatch(/must not point|this machine/);
  expect(outboundUrlProblem(new URL('https://93.184.215.14/'), strict)).toBeNull();
});
