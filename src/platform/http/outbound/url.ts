// The URL rules of an outbound request, checked when a webhook is saved and again before every connection (so a
// URL saved under a looser policy stops working when the policy tightens): the scheme, no credentials, a host, and
// a literal address that is reachable (addresses.ts). Names are checked by address at connection time (resolve.ts).
import { isReachableAddress } from './addresses.js';

export interface OutboundPolicy {
  /** Plain http besides https (development only). */
  allowHttp: boolean;
  /** Loopback, private, link-local and other non-public unicast targets (development only). */
  allowPrivate: boolean;
}

export const unreachableAddress = 'must not point at a private, loopback, link-local or reserved address';

/** The host as an address or a name, without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Whether the host is written as an address rather than a name. */
export function isLiteralHost(url: URL): boolean {
  return url.hostname.startsWith('[') || /^[0-9.]+$/.test(url.hostname);
}

/** Why a request may not go to this URL, or null when it may (as far as the URL alone tells). */
export function outboundUrlProblem(url: URL, policy: OutboundPolicy): string | null {
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return policy.allowHttp ? 'must be an http or https URL' : 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  const host = hostOf(url);
  if (host === '') return 'has no host';
  if (isLiteralHost(url)) return isReachableAddress(host, policy.allowPrivate) ? null : unreachableAddress;
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (!policy.allowPrivate && (name === 'localhost' || name.endsWith('.localhost'))) return 'must not point at this machine';
  return null;
}
