// Checks an IP allow-list entry as the user types: an IPv4 or IPv6 address, optionally with a CIDR prefix length.
// The server parses again (ipaddr.js) and normalises; this only catches typing mistakes early.
const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(text: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.split('::').length > 2) return false;
  let parts = text.split(':');
  let groups = 8;
  const last = parts[parts.length - 1]!;
  if (last.includes('.')) {
    if (!v4.test(last)) return false;
    groups = 6;
    parts = parts.slice(0, -1);
    if (text.endsWith('::' + last)) parts.push('');
  }
  const filled = parts.filter((p) => p !== '');
  if (!filled.every((p) => /^[0-9a-fA-F]{1,4}$/.test(p))) return false;
  return text.includes('::') ? filled.length < groups : filled.length === groups && parts.length === groups;
}

/** '' when the entry is valid, else why not. */
export function ipEntryProblem(entry: string): string {
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined) return 'has more than one "/"';
  const family = v4.test(address) ? 4 : isIpv6(address) ? 6 : 0;
  if (family === 0) return 'is not an IPv4 or IPv6 address';
  if (prefix !== undefined) {
    const max = family === 4 ? 32 : 128;
    if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return `has a prefix length outside 0-${max}`;
  }
  return '';
}

/** One entry per line (commas also separate); blank lines are ignored. */
export function parseAllowList(text: string): { entries: string[]; problems: string[] } {
  const entries = text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
  const problems = entries.flatMap((e) => {
    const p = ipEntryProblem(e);
    return p ? [`"${e}" ${p}.`] : [];
  });
  if (entries.length > 50) problems.push(`At most 50 entries; ${entries.length} are given.`);
  return { entries, problems };
}
