// The headers of a delivery: the seed's (which custom headers may not replace) and the webhook's custom ones.
import { bodySignature, timestampedSignature } from './signing.js';

export const maxCustomHeaders = 20;
const maxNameLength = 100;
const tokenPattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const valuePattern = /^[\t\x20-\x7e]*$/;

/**
 * Names a custom header may not take: the delivery's own, and those of the connection itself. Other X-SVC- names are
 * the client's to use (the seed suggests X-SVC-Webhook-Version).
 */
const reservedNames = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'user-agent',
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'x-svc-event',
  'x-svc-delivery',
  'x-svc-workspace',
  'x-svc-timestamp',
  'x-svc-signature',
  'x-svc-timestamp-signature',
  'x-svc-attempt',
]);

export const userAgent = 'Svc-Webhook/1.0';

/** The reason a set of custom headers is refused, or null when it is acceptable. */
export function headersProblem(headers: Record<string, string>): string | null {
  const names = Object.keys(headers);
  if (names.length > maxCustomHeaders) return `holds at most ${maxCustomHeaders} headers`;
  const seen = new Set<string>();
  for (const name of names) {
    const lower = name.toLowerCase();
    if (name.length > maxNameLength || !tokenPattern.test(name))
      return `has the name ${JSON.stringify(name.slice(0, 64))}, which is not an HTTP header name of at most ${maxNameLength} characters`;
    if (reservedNames.has(lower)) return `may not set ${name}: the delivery sets it itself`;
    if (seen.has(lower)) return `names ${name} twice`;
    seen.add(lower);
    const value = headers[name]!;
    if (typeof value !== 'string' || value.length > 1000 || !valuePattern.test(value))
      return `has a value for ${name} that is not printable ASCII of at most 1000 characters`;
  }
  return null;
}

export interface DeliveryHeaderInput {
  secret: string;
  body: string;
  event: string;
  deliveryId: string;
  workspaceId: string;
  attempt: number;
  /** Unix time in seconds at signing. */
  timestamp: number;
  custom: Record<string, string>;
}

export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  return {
    ...input.custom,
    'Content-Type': 'application/json',
    'User-Agent': userAgent,
    'X-SVC-Event': input.event,
    'X-SVC-Delivery': input.deliveryId,
    'X-SVC-Workspace': input.workspaceId,
    'X-SVC-Timestamp': String(input.timestamp),
    'X-SVC-Signature': bodySignature(input.secret, input.body),
    'X-SVC-Timestamp-Signature': timestampedSignature(input.secret, input.timestamp, input.body),
    'X-SVC-Attempt': String(input.attempt),
  };
}
