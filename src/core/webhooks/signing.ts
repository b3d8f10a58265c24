// The signatures of a delivery. X-SVC-Signature is the seed's: sha256=<hex HMAC-SHA256 of exactly the body bytes>,
// keyed with the webhook secret (its UTF-8 bytes). The body does not change between attempts, so that signature
// alone cannot date a request; X-SVC-Timestamp-Signature signs "<X-SVC-Timestamp>.<body>" as well, so a receiver
// (the SDK's verifyWebhook) can refuse a captured request replayed later with a fresh timestamp.
import { createHmac } from 'node:crypto';

export function bodySignature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export function timestampedSignature(secret: string, timestamp: number, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}
