// What a partner handler knows about its request: the API key that passed the gate, or the user of a bearer JWT,
// and the database handle its writes must use (a transaction when the request is idempotent).
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../../core/auth/caller.js';
import { bearerErrors } from '../../core/auth/errors.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { partnerErrors } from './errors.js';
import type { KeyEnvironment } from '../../core/keys/environment.js';
import { idempotencyOf, type IdempotencyRequest } from './idempotency-request.js';

/** The API key a request was made with, as the gate validated it. */
export interface KeyPrincipal {
  keyId: string;
  workspaceId: string;
  environment: KeyEnvironment;
  prefix: string;
  scopes: string[];
}

export interface PartnerContext {
  requestId: string;
  /** Set by the gate on requests made with an API key. */
  key: KeyPrincipal | null;
  /** Set by bearer-JWT authentication on administration operations. */
  user: Caller | null;
  /** The pool, or the transaction of an idempotent write: writes go through it so they commit with its record. */
  db: Queryable;
  /** The Idempotency-Key and content fingerprint of a write made with an API key. */
  idempotency: IdempotencyRequest | null;
  /** Set inside an idempotent write's transaction: work to run once it committed (see whenCommitted). */
  afterCommit?: (work: () => Promise<void>) => void;
}

/** Runs work once the request's writes are committed: at once outside a transaction, after its commit inside one. */
export async function whenCommitted(ctx: PartnerContext, work: () => Promise<void>): Promise<void> {
  if (ctx.afterCommit) ctx.afterCommit(work);
  else await work();
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: KeyPrincipal;
    /** A GET operation's pool, chosen by the read router (a replica that has the caller's writes, or the primary). */
    partnerReadDb?: Queryable;
  }
}

export function keyOf(ctx: PartnerContext): KeyPrincipal {
  if (!ctx.key) throw partnerErrors.apiKeyMissing();
  return ctx.key;
}

export function userOf(ctx: PartnerContext): Caller {
  // Bearer authentication runs before every administration handler; a handler without a user is a wiring fault.
  if (!ctx.user) throw bearerErrors.unauthenticated();
  return ctx.user;
}

export function partnerContextFactory(db: Queryable) {
  return (request: FastifyRequest): PartnerContext => ({
    requestId: request.id,
    key: request.apiKey ?? null,
    user: request.caller ?? null,
    db: request.partnerReadDb ?? db,
    idempotency: idempotencyOf(request),
  });
}
