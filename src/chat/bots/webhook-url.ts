// Where bot webhooks may point: the platform's outbound rules (src/platform/http/outbound), with https only and public
// addresses only unless BOT_WEBHOOK_ALLOW_HTTP / BOT_WEBHOOK_ALLOW_PRIVATE. The same rules run when the URL is set
// (here) and again before and at every connection (delivery/post.ts), so neither DNS nor a policy that tightened
// later can be used to slip past them.
import { isReachableAddress, outboundUrlProblem, type OutboundPolicy } from '../../platform/http/outbound/index.js';

export type WebhookPolicy = OutboundPolicy;

export function isPublicAddress(address: string): boolean {
  return isReachableAddress(address, false);
}

/** Why the URL may not be a webhook, or null when it may. */
export function webhookUrlProblem(raw: string, policy: WebhookPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  return outboundUrlProblem(url, policy);
}
