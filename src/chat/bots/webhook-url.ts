// Where bot webhooks may point. By default only https URLs whose addresses are public unicast: a webhook must not
// turn the platform into a proxy towards its own network. The check runs when the URL is set (scheme, literal
// addresses, localhost) and again at every connection (every address the name resolves to), so DNS cannot be
// used to slip past it later.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface WebhookPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Why the URL may not be a webhook, or null when it may. */
export function webhookUrlProblem(raw: string, policy: WebhookPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return policy.allowHttp ? 'must be an http or https URL' : 'must be an https URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (policy.allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at this machine';
  if (ipaddr.isValid(host) && !isPublicAddress(host)) return 'must not point at a private, loopback or link-local address';
  return null;
}

/** A DNS lookup for outgoing webhook connections that refuses names resolving to non-public addresses. */
export function guardedLookup(policy: WebhookPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => !policy.allowPrivate && !isPublicAddress(a.address));
      if (refused) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, which webhooks may not reach`), { code: 'EADDRNOTALLOWED' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
