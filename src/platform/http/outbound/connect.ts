// Opening an outbound HTTP(S) request under the outbound policy. The URL is checked again here (scheme, literal
// address), the host is resolved and checked on every new connection, and the socket connects to exactly the address
// that was checked (pinned), so a name that resolves differently a moment later (DNS rebinding) cannot redirect it.
// Redirects are never followed: node's http client does not follow them, and callers treat a 3xx as a failure.
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { OutboundRefused, resolveOutbound, type HostLookup, type ResolvedTarget } from './resolve.js';
import { outboundUrlProblem, type OutboundPolicy } from './url.js';

/** A lookup that answers with an address already resolved and checked. */
export function pinnedLookup(target: ResolvedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

/** A connection-time lookup that refuses names resolving to addresses the policy does not allow. */
export function guardedLookup(policy: OutboundPolicy, timeoutMs: number, resolve?: HostLookup): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolveOutbound(hostname, policy.allowPrivate, timeoutMs, resolve).then(
      (target) => (options?.all ? callback(null, [target]) : callback(null, target.address, target.family)),
      (err: unknown) => callback(err, '', 0),
    );
  }) as unknown as LookupFunction;
}

/**
 * Starts a request to url under the policy. Throws OutboundRefused when the URL itself is refused (nothing is
 * connected then); a host name refused at connection time fails the request with an OutboundRefused error.
 */
export function outboundRequest(
  url: URL,
  options: RequestOptions,
  policy: OutboundPolicy,
  timeoutMs: number,
  onResponse?: (res: IncomingMessage) => void,
): ClientRequest {
  const problem = outboundUrlProblem(url, policy);
  if (problem) throw new OutboundRefused(`the URL ${problem}`);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return send(url, { ...options, lookup: guardedLookup(policy, timeoutMs) }, onResponse);
}
