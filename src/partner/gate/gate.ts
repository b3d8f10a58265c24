// The key gate of convention A, in the seed's order: the rate counter by calling IP, then key validation, then the
// allowed surface (all on every request, routed or not), then the operation's scope (once the route is known).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../chat/context.js';
import { partnerErrors } from '../errors.js';
import { grants } from '../scopes/catalogue.js';
import type { KeyLookup } from './key-lookup.js';
import type { LastUsedRecorder } from './last-used.js';
import type { RateLimiter } from './rate-limit.js';
import { isKeySurface } from './surfaces.js';

export interface GateParts {
  limiter: Pick<RateLimiter, 'hit'>;
  keys: Pick<KeyLookup, 'authenticate'>;
  lastUsed: Pick<LastUsedRecorder, 'touch'>;
}

/** Steps 1–3, as an onRequest hook: rate headers on every response; the key principal on the request. */
export function createGate({ limiter, keys, lastUsed }: GateParts) {
  return async function gate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const rate = await limiter.hit(request.ip);
    reply.header('x-ratelimit-limit', String(rate.limit));
    reply.header('x-ratelimit-remaining', String(rate.remaining));
    reply.header('x-ratelimit-reset', String(rate.reset));
    if (rate.refusal) throw partnerErrors.rateLimitExceeded(rate.refusal);

    const header = request.headers['x-api-key'];
    const onKeySurface = isKeySurface(request.url);
    // Paths outside the key surfaces belong to users (bearer JWT); a key there is refused after it is validated.
    if (!onKeySurface && header === undefined) return;
    const principal = await keys.authenticate(typeof header === 'string' ? header : undefined);
    if (!onKeySurface) throw partnerErrors.userOnly(request.url.split('?')[0] ?? request.url);
    request.apiKey = principal;
    lastUsed.touch(principal.keyId);
  };
}

/** Operation id → the scope its x-required-scope extension names. */
export function requiredScopes(spec: Record<string, unknown>): Map<string, string> {
  const result = new Map<string, string>();
  const paths = (spec.paths ?? {}) as Record<string, Record<string, { operationId?: string; 'x-required-scope'?: string }>>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.operationId && typeof op['x-required-scope'] === 'string') {
        result.set(op.operationId, op['x-required-scope']);
      }
    }
  }
  return result;
}

/** Step 4 for key operations, and bearer-JWT authentication for administration operations. */
export function createOperationAuth(scopes: Map<string, string>, authenticateUser: (request: FastifyRequest) => Promise<Caller>) {
  return async function authenticate(request: FastifyRequest, security: Array<Record<string, string[]>>, operationId: string): Promise<void> {
    const schemes = security.flatMap((s) => Object.keys(s));
    if (schemes.includes('api-key')) {
      const principal = request.apiKey;
      if (!principal) throw partnerErrors.apiKeyMissing();
      const scope = scopes.get(operationId);
      if (scope && !grants(principal.scopes, scope)) throw partnerErrors.scopeRequired(scope);
      return;
    }
    request.caller = await authenticateUser(request);
  };
}
