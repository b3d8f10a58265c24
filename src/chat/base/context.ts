import type { FastifyRequest } from 'fastify';
import type { Caller } from '../../core/auth/caller.js';
import { chatErrors } from './errors.js';

export type { Caller };

export interface ChatContext {
  requestId: string;
  /** Set by authentication on every secured operation. */
  caller: Caller | null;
  /** scheme://host the client called, for URLs handed back (upload sessions). */
  origin: string;
  /** The Idempotency-Key header (validated against the operation's spec where it declares one). */
  idempotencyKey?: string;
}

export function chatContext(request: FastifyRequest): ChatContext {
  const key = request.headers['idempotency-key'];
  return {
    requestId: request.id,
    caller: request.caller ?? null,
    origin: `${request.protocol}://${request.host || 'localhost'}`,
    ...(typeof key === 'string' ? { idempotencyKey: key } : {}),
  };
}

export function callerOf(ctx: ChatContext): Caller {
  if (!ctx.caller) throw chatErrors.unauthenticated();
  return ctx.caller;
}

export function platformAdminOf(ctx: ChatContext): Caller {
  const caller = callerOf(ctx);
  if (!caller.platformAdmin) throw chatErrors.platformAdminRequired();
  return caller;
}
