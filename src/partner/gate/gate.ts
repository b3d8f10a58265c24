// The key gate of convention A, in the seed's order: the rate counter by calling IP, then key validation, then the
// allowed surface (all on every request, routed or not), then the operation's scope (once the route is known).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../core/auth/caller.js';
import { operationAuth } from '../../platform/http/operation-auth.js';
import { partnerErrors } from '../base/errors.js';
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

/** Addresses whose last counted request left at least this share of the minute's allowance. */
const headroomShare = 0.2;
/** Addresses remembered for that; the oldest are forgotten first. */
const maxRemembered = 10_000;

/**
 * Steps 1–3, as an onRequest hook: rate headers on every response; the key principal on the request.
 * For an address that had plenty of allowance left at its previous request, the key lookup (a database read with
 * no side effect) starts beside the rate counter, so the request waits for one round trip instead of two; its
 * answer is used only once the counter admitted the request, so refusals keep the seed's order. An address near
 * or over its limit (a flood) gets the lookup only after the counter admitted it, so refused requests never
 * reach the database.
 */
export function createGate({ limiter, keys, lastUsed }: GateParts) {
  const headroom = new Map<string, boolean>();
  const remember = (ip: string, ample: boolean) => {
    headroom.delete(ip);
    headroom.set(ip, ample);
    if (headroom.size > maxRemembered) headroom.delete(headroom.keys().next().value!);
  };
  return async function gate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers['x-api-key'];
    const onKeySurface = isKeySurface(request.url);
    // Paths outside the key surfaces belong to users (bearer JWT); a key there is refused after it is validated.
    const needsKey = onKeySurface || header !== undefined;
    const lookup = () => keys.authenticate(typeof header === 'string' ? header : undefined);
    const early = needsKey && headroom.get(request.ip) === true ? lookup() : undefined;
    // Settled here so that a refusal by the counter leaves no unhandled rejection behind.
    early?.catch(() => undefined);

    const rate = await limiter.hit(request.ip);
    remember(request.ip, rate.remaining >= rate.limit * headroomShare);
    reply.header('x-ratelimit-limit', String(rate.limit));
    reply.header('x-ratelimit-remaining', String(rate.remaining));
    reply.header('x-ratelimit-reset', String(rate.reset));
    if (rate.refusal) throw partnerErrors.rateLimitExceeded(rate.refusal);

    if (!needsKey) return;
    const principal = await (early ?? lookup());
    if (!onKeySurface) throw partnerErrors.userOnly(request.url.split('?')[0] ?? request.url);
    request.apiKey = principal;
    lastUsed.touch(principal.keyId);
  };
}

/** Step 4 for key operations, and bearer-JWT authentication for administration operations. */
export function createOperationAuth(scopes: Map<string, string>, authenticateUser: (request: FastifyRequest) => Promise<Caller>) {
  return operationAuth({
    keyScheme: 'api-key',
    scopes,
    checkKey(request, scope) {
      const principal = request.apiKey;
      if (!principal) throw partnerErrors.apiKeyMissing();
      if (scope && !grants(principal.scopes, scope)) throw partnerErrors.scopeRequired(scope);
    },
    async authenticateUser(request) {
      request.caller = await authenticateUser(request);
    },
  });
}
