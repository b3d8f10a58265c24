import type { FastifyRequest } from 'fastify';
import { chatErrors } from './errors.js';

/** The authenticated caller, derived only from the verified bearer token and the account row. */
export interface Caller {
  accountId: string;
  moduleCode: string;
  customerAccountId: string;
  platformAdmin: boolean;
}

export interface ChatContext {
  requestId: string;
  /** Set by authentication on every secured operation. */
  caller: Caller | null;
  /** scheme://host the client called, for URLs handed back (upload sessions). */
  origin: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

export function chatContext(request: FastifyRequest): ChatContext {
  return { requestId: request.id, caller: request.caller ?? null, origin: `${request.protocol}://${request.host || 'localhost'}` };
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
