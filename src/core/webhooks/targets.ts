// Where a webhook may send: the platform's outbound rules (src/platform/http/outbound) with https only and public
// addresses only unless WEBHOOK_ALLOW_PRIVATE_TARGETS. Its host is resolved once per request and every address it
// resolves to is checked; the request then connects to that very address, so a name that resolves differently a
// moment later (DNS rebinding) cannot redirect it. The same check runs when a webhook is saved and before every attempt.
import {
  hostOf,
  OutboundRefused,
  outboundUrlProblem,
  resolveOutbound,
  type HostLookup,
  type ResolvedTarget,
} from '../../platform/http/outbound/index.js';

export const maxUrlLength = 2048;

export { hostOf, OutboundRefused as TargetRefused, type HostLookup, type ResolvedTarget };

/** The parsed URL, or the reason it is not acceptable; its addresses are judged by resolveTarget. */
export function parseWebhookUrl(raw: string): URL | string {
  if (raw.length > maxUrlLength) return `must be at most ${maxUrlLength} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:') return 'must use https (plain http is not supported)';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (url.hostname === '') return 'has no host';
  url.hash = '';
  return url;
}

/**
 * Resolves the URL's host (within timeoutMs) and checks every address; throws TargetRefused, or the resolver's error
 * (code ETIMEOUT when it took too long).
 */
export async function resolveTarget(url: URL, allowPrivate: boolean, timeoutMs: number, resolve?: HostLookup): Promise<ResolvedTarget> {
  const problem = outboundUrlProblem(url, { allowHttp: false, allowPrivate });
  if (problem) throw new OutboundRefused(`the URL ${problem}`);
  return resolveOutbound(hostOf(url), allowPrivate, timeoutMs, resolve);
}
