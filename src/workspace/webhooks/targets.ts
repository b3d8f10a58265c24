// Where a webhook may send. The URL must be https, without credentials. Its host is resolved once per request and
// every address it resolves to must be a public unicast address unless WEBHOOK_ALLOW_PRIVATE_TARGETS (loopback,
// private, link-local, unique-local, CGNAT, reserved and the IPv6 forms that embed IPv4 are refused); the request
// then connects to that very address, so a name that resolves differently a moment later (DNS rebinding) cannot
// redirect it. The same check runs when a webhook is saved and before every attempt.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export const maxUrlLength = 2048;

/** A target that may not be called: the message says why (it is shown to the client and logged). */
export class TargetRefused extends Error {}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

/** The parsed URL, or the reason it is not acceptable. */
export function parseWebhookUrl(raw: string): URL | string {
  if (raw.length > maxUrlLength) return `must be at most ${maxUrlLength} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:') return 'must use https (plain http is not supported)';
  if (url.username !== '' || url.password !== '') return 'may not carry a user name or password';
  if (url.hostname === '') return 'has no host';
  url.hash = '';
  return url;
}

/** The host as an address or a name, without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function isAllowed(address: string, allowPrivate: boolean): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  const range = parsed.range();
  // Never: "no address" (0.0.0.0 reaches this host), group and broadcast addresses.
  if (range === 'unspecified' || range === 'multicast' || range === 'broadcast') return false;
  return allowPrivate || range === 'unicast';
}

/** Resolves the URL's host and checks every address; throws TargetRefused, or the resolver's error. */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<ResolvedTarget> {
  const host = hostOf(url);
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new TargetRefused(`${host} resolves to no address`);
  for (const { address } of addresses) {
    if (!isAllowed(address, allowPrivate)) {
      throw new TargetRefused(`${host} resolves to ${address}, a loopback, private, link-local or reserved address, which webhooks may not call`);
    }
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
