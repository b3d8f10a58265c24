// IP allow-lists: addresses and CIDR ranges, IPv4 and IPv6, parsed by ipaddr.js. Entries are normalised when a
// key is created (network address of a range, RFC 5952 text for IPv6, IPv4-mapped IPv6 written as IPv4), and
// the caller's address is matched in the same family after unmapping ::ffff:a.b.c.d.
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** Only the four-part decimal form of IPv4: 127.1 or 0x7f.0.0.1 would read as addresses nobody meant. */
function parseAddress(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes(':') && ipaddr.IPv6.isValid(text) && !text.includes('%')) return ipaddr.IPv6.parse(text);
  return null;
}

function unmapped(address: Address, bits: number): Range {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [address, bits];
}

function text(address: Address): string {
  return address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
}

/** The normalised form of an allow-list entry, or null when it is neither an address nor a CIDR range. */
export function normaliseEntry(raw: string): string | null {
  const slash = raw.indexOf('/');
  if (slash < 0) {
    const address = parseAddress(raw);
    if (!address) return null;
    const [plain] = unmapped(address, address.kind() === 'ipv6' ? 128 : 32);
    return text(plain);
  }
  const address = parseAddress(raw.slice(0, slash));
  const bitsText = raw.slice(slash + 1);
  if (!address || !/^\d{1,3}$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  if (bits > (address.kind() === 'ipv6' ? 128 : 32)) return null;
  const [base, prefix] = unmapped(address, bits);
  const network =
    base.kind() === 'ipv6'
      ? ipaddr.IPv6.networkAddressFromCIDR(`${text(base)}/${prefix}`)
      : ipaddr.IPv4.networkAddressFromCIDR(`${text(base)}/${prefix}`);
  return `${text(network)}/${prefix}`;
}

function toRange(entry: string): Range | null {
  const slash = entry.indexOf('/');
  const address = parseAddress(slash < 0 ? entry : entry.slice(0, slash));
  if (!address) return null;
  const bits = slash < 0 ? (address.kind() === 'ipv6' ? 128 : 32) : Number(entry.slice(slash + 1));
  return unmapped(address, bits);
}

/** Parsed lists by their stored text: keys are few and their lists rarely change. */
const compiled = new Map<string, Range[]>();
const compiledMax = 10_000;

function compile(entries: readonly string[]): Range[] {
  const id = entries.join(',');
  let ranges = compiled.get(id);
  if (!ranges) {
    ranges = entries.map(toRange).filter((r): r is Range => r !== null);
    if (compiled.size >= compiledMax) compiled.clear();
    compiled.set(id, ranges);
  }
  return ranges;
}

/** The caller's address as the audit log and messages show it: IPv4-mapped IPv6 unmapped. */
export function clientAddress(ip: string): string {
  try {
    return text(ipaddr.process(ip));
  } catch {
    return ip;
  }
}

/** True when the list is empty or one of its entries contains the address. */
export function isAllowed(entries: readonly string[], ip: string): boolean {
  if (entries.length === 0) return true;
  let address: Address;
  try {
    address = ipaddr.process(ip);
  } catch {
    return false;
  }
  return compile(entries).some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}
