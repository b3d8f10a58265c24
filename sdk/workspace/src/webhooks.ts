// Verifying a webhook delivery on the receiving side: X-SVC-Signature is "sha256=" and the hex HMAC-SHA256 of the
// raw request body keyed with the webhook's secret, so it must be checked over the exact bytes received (never over
// JSON parsed and serialised again). Web Crypto's HMAC verify compares in constant time and runs on Node 20+,
// Deno, Bun, workers and browsers alike. The envelope and header types are the generated schema's `webhooks` map.
import type { webhooks } from './schema.js';

/** The name of every event a delivery can carry: the catalogue's, and ping. */
export type WebhookEventName = keyof webhooks;

/** The envelope of one event, as the workspace document's `webhooks` map declares it. */
export type WebhookEnvelopeOf<E extends WebhookEventName> = webhooks[E]['post']['requestBody']['content']['application/json'];

/** The data of one event's envelope. */
export type WebhookDataOf<E extends WebhookEventName> = WebhookEnvelopeOf<E>['data'];

/** The X-SVC-* headers of one event's delivery. */
export type WebhookDeliveryHeadersOf<E extends WebhookEventName> = webhooks[E]['post']['parameters']['header'];

/** The envelope every delivery carries: a union narrowed by its `event`. */
export type WebhookEnvelope = { [E in WebhookEventName]: WebhookEnvelopeOf<E> }[WebhookEventName];

export interface VerifiedWebhook {
  /** X-SVC-Delivery, equal to the envelope's id: remember it (24 hours) and skip repeats; a resend repeats it, a replay has a new one. */
  deliveryId: string;
  event: string;
  workspaceId: string;
  attempt: number;
  /** X-SVC-Timestamp, Unix seconds at signing. */
  timestamp: number;
  envelope: WebhookEnvelope;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** The request body exactly as received: a string, a Buffer/Uint8Array or an ArrayBuffer. */
  rawBody: string | Uint8Array | ArrayBuffer;
  /** The request headers (a fetch Headers, or Node's IncomingHttpHeaders). */
  headers: WebhookHeaders;
  /** The webhook's secret (whsec_…), shown when the webhook was created. */
  secret: string;
  /** How far X-SVC-Timestamp may be from now, in seconds (default 300). Retries are signed afresh at each attempt. */
  toleranceSeconds?: number;
  /**
   * Also require X-SVC-Timestamp-Signature (HMAC of "<timestamp>.<body>"), which binds the timestamp to the body so a
   * captured delivery cannot be replayed later under a new timestamp. Default false: it is checked whenever present.
   */
  requireTimestampSignature?: boolean;
  /** The current time in milliseconds (default Date.now), for tests. */
  now?: () => number;
}

export type WebhookVerificationFailure =
  'missing_header' | 'malformed_header' | 'invalid_signature' | 'timestamp_outside_tolerance' | 'malformed_body';

export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

const signaturePattern = /^sha256=([0-9a-f]{64})$/i;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== lower) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function required(headers: WebhookHeaders, name: string): string {
  const value = header(headers, name);
  if (value === undefined || value === '') throw new WebhookVerificationError('missing_header', `The ${name} header is missing.`);
  return value;
}

function bytesOf(raw: VerifyWebhookOptions['rawBody']): Uint8Array {
  if (typeof raw === 'string') return new TextEncoder().encode(raw);
  if (raw instanceof Uint8Array) return raw;
  if (raw instanceof ArrayBuffer) return new Uint8Array(raw);
  throw new TypeError('rawBody must be the raw request body (string, Uint8Array or ArrayBuffer), not parsed JSON');
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function signatureBytes(value: string, name: string): Uint8Array {
  const match = signaturePattern.exec(value.trim());
  if (!match) throw new WebhookVerificationError('malformed_header', `${name} is not sha256=<64 hex digits>.`);
  return hexBytes(match[1]!);
}

async function hmacMatches(secret: string, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Web Crypto (globalThis.crypto.subtle) is required to verify webhooks');
  const key = await subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  return subtle.verify('HMAC', key, signature as Uint8Array<ArrayBuffer>, data as Uint8Array<ArrayBuffer>);
}

/**
 * Verifies a delivery and returns it parsed; throws WebhookVerificationError (reason says why) when the signature,
 * the timestamp or the body is not right. Call it before anything else, with the raw body.
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<VerifiedWebhook> {
  const { headers, secret } = options;
  if (typeof secret !== 'string' || secret === '') throw new TypeError('verifyWebhook needs the webhook secret');
  const body = bytesOf(options.rawBody);
  const signature = signatureBytes(required(headers, 'X-SVC-Signature'), 'X-SVC-Signature');
  const timestampText = required(headers, 'X-SVC-Timestamp');
  if (!/^\d{1,12}$/.test(timestampText)) throw new WebhookVerificationError('malformed_header', 'X-SVC-Timestamp is not Unix seconds.');
  const timestamp = Number(timestampText);

  if (!(await hmacMatches(secret, signature, body))) {
    throw new WebhookVerificationError(
      'invalid_signature',
      'X-SVC-Signature does not match the body: wrong secret, or the body was changed (sign the raw bytes, not re-serialised JSON).',
    );
  }
  const timestamped = header(headers, 'X-SVC-Timestamp-Signature');
  if (timestamped === undefined && options.requireTimestampSignature) {
    throw new WebhookVerificationError('missing_header', 'The X-SVC-Timestamp-Signature header is missing.');
  }
  if (timestamped !== undefined) {
    const prefix = new TextEncoder().encode(`${timestamp}.`);
    const material = new Uint8Array(prefix.length + body.length);
    material.set(prefix, 0);
    material.set(body, prefix.length);
    if (!(await hmacMatches(secret, signatureBytes(timestamped, 'X-SVC-Timestamp-Signature'), material))) {
      throw new WebhookVerificationError(
        'invalid_signature',
        'X-SVC-Timestamp-Signature does not match: the timestamp or the body was changed.',
      );
    }
  }
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = (options.now ?? Date.now)() / 1000;
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_outside_tolerance',
      `X-SVC-Timestamp is more than ${tolerance} s from now: a stale or replayed delivery.`,
    );
  }

  let envelope: WebhookEnvelope;
  try {
    envelope = JSON.parse(new TextDecoder().decode(body)) as WebhookEnvelope;
  } catch {
    throw new WebhookVerificationError('malformed_body', 'The body is not JSON.');
  }
  if (!envelope || typeof envelope !== 'object' || typeof envelope.id !== 'string' || typeof envelope.event !== 'string') {
    throw new WebhookVerificationError('malformed_body', 'The body is not an event envelope.');
  }
  const attempt = Number(header(headers, 'X-SVC-Attempt') ?? '1');
  return {
    deliveryId: required(headers, 'X-SVC-Delivery'),
    event: header(headers, 'X-SVC-Event') ?? envelope.event,
    workspaceId: header(headers, 'X-SVC-Workspace') ?? envelope.workspace_id,
    attempt: Number.isInteger(attempt) && attempt > 0 ? attempt : 1,
    timestamp,
    envelope,
  };
}
