// What a workspace handler knows about its request: the svc_ key that passed the gate, or the user of a bearer
// JWT (key administration and audit log).
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../../core/auth/caller.js';
import { workspaceErrors } from './errors.js';
import type { KeyEnvironment } from './key-secret.js';

/** The key a request was made with, as the gate validated it. */
export interface SvcPrincipal {
  keyId: string;
  workspaceId: string;
  environment: KeyEnvironment;
  scopes: string[];
}

/** A request made with an identified key (valid or not), for the audit log. */
export interface AuditMark {
  keyId: string;
  workspaceId: string;
  time: Date;
  ip: string;
}

export interface WorkspaceContext {
  requestId: string;
  /** Set by the gate on requests made with a valid key. */
  key: SvcPrincipal | null;
  /** Set by bearer-JWT authentication on administration operations. */
  user: Caller | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    svcKey?: SvcPrincipal;
    svcAudit?: AuditMark;
  }
}

export function keyOf(ctx: WorkspaceContext): SvcPrincipal {
  if (!ctx.key) throw workspaceErrors.keyMissing();
  return ctx.key;
}

export function userOf(ctx: WorkspaceContext): Caller {
  // Bearer authentication runs before every administration handler; a handler without a user is a wiring fault.
  if (!ctx.user) throw workspaceErrors.userMissing();
  return ctx.user;
}

export function workspaceContext(request: FastifyRequest): WorkspaceContext {
  return { requestId: request.id, key: request.svcKey ?? null, user: request.caller ?? null };
}
