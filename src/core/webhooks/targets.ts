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

export type HostLookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: HostLookup = (host) => lookup(host, { all: true, verbatim: true });

/**
 * The host's addresses, or an error with code ETIMEOUT after timeoutMs: the system resolver takes 5 s or more to give
 * up on some names (its own time-out per query), and a request that saves or calls a webhook must answer within its
 * own time-out. The lookup itself cannot be cancelled; its late answer is dropped.
 */
function lookupWithin(host: string, timeoutMs: number, resolve: HostLookup): Promise<Array<{ address: string; family: number }>> {
  const pending = resolve(host);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`resolving ${host} took longer than ${timeoutMs} ms`), { code: 'ETIMEOUT' })), timeoutMs);
  });
  pending.catch(() => undefined);
  return Promise.race([pending, expired]).finally(() => clearTimeout(timer));
}

/**
 * Resolves the URL's host (within timeoutMs) and checks every address; throws TargetRefused, or the resolver's error
 * (code ETIMEOUT when it took too long).
 */
export async function resolveTarget(url: URL, allowPrivate: boolean, timeoutMs: number, resolve: HostLookup = systemLookup): Promise<ResolvedTarget> {
  const host = hostOf(url);
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await lookupWithin(host, timeoutMs, resolve);
  if (addresses.length === 0) throw new TargetRefused(`${host} resolves to no address`);
  for (const { address } of addresses) {
    if (!isAllowed(address, allowPrivate)) {
      throw new TargetRefused(`${host} resolves to ${address}, a loopback, private, link-local or reserved address, which webhooks may not call`);
    }
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
