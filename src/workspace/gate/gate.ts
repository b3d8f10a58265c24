// The key gate of convention B. On every request under /api/v1 that carries "Bearer svc_…", in this order:
// key validation (401), the key's IP allow-list (403 ip_not_allowed), the workspace's rate limit (429); then,
// once the route is known, the operation's scope (403 forbidden naming it). Requests whose key was found are
// marked for the audit log, refused ones included.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../core/auth/caller.js';
import type { Clock } from '../../platform/clock.js';
import { operationAuth } from '../../platform/http/operation-auth.js';
import { workspaceErrors } from '../base/errors.js';
import { grantingScopes, grants } from '../scopes/catalogue.js';
import type { AuditRecorder } from '../audit/recorder.js';
import { clientAddress, isAllowed } from '../base/ip-allow.js';
import type { KeyLookup } from './key-lookup.js';
import type { RateDecision, WorkspaceRateLimiter } from './rate-limit.js';

export interface GateParts {
  keys: Pick<KeyLookup, 'find'>;
  limiter: Pick<WorkspaceRateLimiter, 'hit'>;
  clock: Clock;
}

const bearer = /^Bearer\s+(\S+)\s*$/i;

/** The svc_ key of the Authorization header, or undefined when the header holds something else (a JWT) or nothing. */
export function svcKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const token = bearer.exec(header)?.[1];
  return token?.startsWith('svc_') ? token : undefined;
}

function rateHeaders(reply: FastifyReply, rate: RateDecision): void {
  reply.header('x-ratelimit-limit', String(rate.limit));
  reply.header('x-ratelimit-remaining', String(rate.remaining));
  reply.header('x-ratelimit-reset', String(rate.reset));
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}

export function createGate({ keys, limiter, clock }: GateParts) {
  return async function gate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    // Probes (/healthz, /readyz) answer whatever credential comes with them.
    if (!request.url.startsWith('/api/v1/')) return;
    const token = svcKeyOf(request);
    if (token === undefined) return;
    const found = await keys.find(token);
    if (!found) throw workspaceErrors.keyInvalid();
    const ip = clientAddress(request.ip);
    request.svcAudit = { keyId: found.keyId, workspaceId: found.workspaceId, time: clock.now(), ip };
    if (!found.usable) throw workspaceErrors.keyInvalid();
    if (!isAllowed(found.ipAllowList, request.ip)) {
      // Refused before counting: a leaked key used from elsewhere cannot spend the workspace's allowance.
      rateHeaders(reply, await limiter.hit(found.workspaceId, found.limits, 'peek'));
      throw workspaceErrors.ipNotAllowed(ip);
    }
    const rate = await limiter.hit(found.workspaceId, found.limits, 'admitted');
    rateHeaders(reply, rate);
    if (rate.refusal) throw workspaceErrors.rateLimitExceeded(rate.refusal.window, rate.refusal.limit, rate.refusal.retryAfter);
    request.svcKey = { keyId: found.keyId, workspaceId: found.workspaceId, environment: found.environment, scopes: found.scopes };
  };
}

/** Writes the audit entry of a request made with a found key, once its status is known. */
export function createAuditHook(audit: Pick<AuditRecorder, 'record'>) {
  return async function onResponse(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const mark = request.svcAudit;
    if (!mark) return;
    audit.record({ ...mark, method: request.method, endpoint: pathOf(request.url), statusCode: reply.statusCode });
  };
}

/** The scope of key operations, and bearer-JWT authentication of administration operations. */
export function createOperationAuth(scopes: Map<string, string>, authenticateUser: (request: FastifyRequest) => Promise<Caller>) {
  return operationAuth({
    keyScheme: 'svc-key',
    scopes,
    checkKey(request, scope) {
      const principal = request.svcKey;
      if (!principal) throw workspaceErrors.keyMissing();
      if (scope && !grants(principal.scopes, scope)) throw workspaceErrors.scopeMissing(scope, grantingScopes(scope));
    },
    async authenticateUser(request) {
      if (request.svcKey) throw workspaceErrors.keyNotForAdministration();
      request.caller = await authenticateUser(request);
    },
  });
}
