// What an idempotent write carries: its Idempotency-Key and the fingerprint of its content.
import type { FastifyRequest } from 'fastify';
import { requestFingerprint } from './request-fingerprint.js';

export interface IdempotencyRequest {
  key: string;
  fingerprint: Buffer;
}

/** The request's Idempotency-Key and content fingerprint; null unless it is a write made with an API key. */
export function idempotencyOf(request: FastifyRequest): IdempotencyRequest | null {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || !request.apiKey || !['POST', 'PATCH', 'DELETE'].includes(request.method)) return null;
  return { key, fingerprint: requestFingerprint(request.method, request.url, request.body) };
}
