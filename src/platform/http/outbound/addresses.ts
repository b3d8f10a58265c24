// Which addresses an outbound request (a webhook) may reach. Only public unicast, unless private targets are allowed;
// never "no address", group or broadcast addresses. IPv6 forms that carry an IPv4 address (IPv4-mapped ::ffff:0:0/96,
// IPv4-compatible ::/96, SIIT ::ffff:0:0:0/96, NAT64 64:ff9b::/96) are judged by the IPv4 address they carry, so
// [::127.0.0.1] or [64:ff9b::10.0.0.1] count as loopback and private. Tunnelling prefixes whose far end cannot be
// judged here (6to4, Teredo, local-use NAT64 64:ff9b:1::/48) and every other special-purpose range are refused.
import ipaddr from 'ipaddr.js';

const neverRanges = new Set(['unspecified', 'multicast', 'broadcast']);

/** The IPv4 address an IPv6 address carries in its last 32 bits when its prefix says so; null otherwise. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  const tail = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  // IPv4-compatible (::a.b.c.d; :: and ::1 themselves are judged as IPv6) and IPv4-mapped (::ffff:a.b.c.d).
  if (zeros(0, 5) && (p[5] === 0 || p[5] === 0xffff) && !(p[5] === 0 && p[6] === 0)) return tail();
  // SIIT (::ffff:0:a.b.c.d).
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return tail();
  // NAT64 well-known prefix (64:ff9b::a.b.c.d).
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return tail();
  return null;
}

function ipv4Allowed(address: ipaddr.IPv4, allowPrivate: boolean): boolean {
  const range = address.range();
  if (neverRanges.has(range)) return false;
  return allowPrivate || range === 'unicast';
}

/** Whether an outbound connection may go to this literal address. Anything that does not parse is refused. */
export function isReachableAddress(address: string, allowPrivate: boolean): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv4') return ipv4Allowed(parsed as ipaddr.IPv4, allowPrivate);
  const v6 = parsed as ipaddr.IPv6;
  const carried = embeddedIpv4(v6);
  if (carried) return ipv4Allowed(carried, allowPrivate);
  const range = v6.range();
  if (neverRanges.has(range)) return false;
  return allowPrivate || range === 'unicast';
}
