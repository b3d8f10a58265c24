// Bearer JWT authentication for the chat service. Identity comes only from a token verified against a key
// registered for its issuer (module) and customer, and from the account's status and owner. Both come from caches
// invalidated through Redis on every change, so a deactivated or banned account is refused on the very next request
// on every node even with an unexpired token, and a warm request costs no database round trip.
import type { FastifyRequest } from 'fastify';
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../../platform/clock.js';
import { isUuid } from '../../platform/ids.js';
import type { Caller } from './caller.js';
import type { AccountCache } from './account-cache.js';
import { bearerErrors } from './errors.js';
import { VerifiedTokenCache } from './token-cache.js';
import type { VerifyKeyCache } from './verify-key-cache.js';

export interface AuthOptions {
  audience: string;
  platformModule: string;
  /** Tolerated clock difference between token issuers and this service. */
  clockToleranceSec?: number;
  /** Longest accepted lifetime: exp - iat, and exp - now (which also bounds tokens without iat). */
  maxTokenLifetimeSec: number;
}

interface ChatClaims extends JWTPayload {
  cid?: unknown;
  pa?: unknown;
}

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw bearerErrors.unauthenticated();
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (!match?.[1]) throw bearerErrors.tokenMalformed('expected "Bearer <jwt>"');
  return match[1];
}

function unverifiedParts(token: string): { claims: ChatClaims; kid: string | undefined } {
  try {
    const claims = decodeJwt(token) as ChatClaims;
    const header = decodeProtectedHeader(token);
    return { claims, kid: typeof header.kid === 'string' ? header.kid : undefined };
  } catch {
    throw bearerErrors.tokenMalformed('it does not decode as a JWS compact token');
  }
}

/**
 * A stolen long-lived token stays usable for its whole lifetime: tokens meant to live longer than the maximum are
 * refused. Both exp - iat (the lifetime as issued) and exp - now are bounded: an iat set in the future would
 * otherwise make a ten-year token look short.
 */
function checkLifetime(payload: JWTPayload, nowSec: number, options: AuthOptions): void {
  const max = options.maxTokenLifetimeSec;
  const exp = payload.exp!;
  if (typeof payload.iat === 'number' && exp - payload.iat > max) {
    throw bearerErrors.tokenLifetimeExceeded(Math.round(exp - payload.iat), max, 'exp - iat');
  }
  if (exp - nowSec > max + (options.clockToleranceSec ?? 30)) {
    throw bearerErrors.tokenLifetimeExceeded(Math.round(exp - nowSec), max, 'exp - now');
  }
}

export function createAuthenticator(accounts: AccountCache, keys: VerifyKeyCache, clock: Clock, options: AuthOptions) {
  const tolerance = options.clockToleranceSec ?? 30;
  const verified = new VerifiedTokenCache();

  /** Decodes and verifies the token against the customer's current keys; remembers a success. */
  async function verify(token: string): Promise<{ iss: string; cid: string; payload: ChatClaims }> {
    const { claims, kid } = unverifiedParts(token);
    if (typeof claims.iss !== 'string' || typeof claims.cid !== 'string') {
      throw bearerErrors.tokenInvalid('the iss (module) and cid (customer account) claims are required');
    }
    const keySet = await keys.keysFor(claims.iss, claims.cid);
    const candidates = keySet.filter((k) => kid === undefined || k.kid === kid);
    if (candidates.length === 0) throw bearerErrors.unknownSigningKey();

    let payload: ChatClaims | undefined;
    let lastError: unknown;
    for (const candidate of candidates) {
      try {
        const result = await jwtVerify(token, candidate.key, {
          algorithms: [candidate.algorithm],
          issuer: claims.iss,
          audience: options.audience,
          requiredClaims: ['exp', 'sub'],
          currentDate: clock.now(),
          clockTolerance: tolerance,
        });
        payload = result.payload as ChatClaims;
        break;
      } catch (err) {
        lastError = err;
        if (!(err instanceof joseErrors.JWSSignatureVerificationFailed)) break;
      }
    }
    if (!payload) {
      if (lastError instanceof joseErrors.JWTExpired) throw bearerErrors.tokenExpired();
      if (lastError instanceof joseErrors.JWTClaimValidationFailed && lastError.claim === 'aud')
        throw bearerErrors.audienceMismatch(options.audience);
      if (lastError instanceof joseErrors.JWTClaimValidationFailed)
        throw bearerErrors.tokenInvalid(`claim ${lastError.claim} ${lastError.reason}`);
      if (lastError instanceof joseErrors.JWSSignatureVerificationFailed) throw bearerErrors.tokenInvalid('the signature does not verify');
      throw bearerErrors.tokenInvalid('it could not be verified');
    }
    if (keys.isCurrent(claims.iss, claims.cid, keySet)) verified.set(token, { iss: claims.iss, cid: claims.cid, keys: keySet, payload });
    return { iss: claims.iss, cid: claims.cid, payload };
  }

  return async function authenticate(request: FastifyRequest): Promise<Caller> {
    const token = bearerToken(request);
    const nowSec = Math.floor(clock.now().getTime() / 1000);
    // A token verified before against keys that are still current needs no second signature check.
    const hit = verified.get(token, nowSec, tolerance);
    const known = hit && keys.isCurrent(hit.iss, hit.cid, hit.keys) ? hit : undefined;
    if (hit && !known) verified.delete(token);
    const { iss, cid, payload } = known ? { iss: known.iss, cid: known.cid, payload: known.payload as ChatClaims } : await verify(token);
    checkLifetime(payload, clock.now().getTime() / 1000, options);
    if (typeof payload.sub !== 'string' || !isUuid(payload.sub)) throw bearerErrors.tokenInvalid('sub must be an account uuid');

    const account = await accounts.get(payload.sub);
    // An erased account is no longer registered (docs/adr/0156-account-erasure.md).
    if (!account || account.status === 'ERASED') throw bearerErrors.accountUnknown();
    // A module's keys only vouch for that module's own accounts of that customer.
    if (account.moduleCode !== iss || account.customerAccountId !== cid) {
      throw bearerErrors.tokenInvalid('the issuer does not own this account');
    }
    if (account.status === 'DEACTIVATED') throw bearerErrors.accountDeactivated();
    if (account.status === 'BANNED') throw bearerErrors.accountBanned();
    return {
      // The stored (canonical, lowercase) id, not sub as written: an upper-case sub matches the same row but
      // would otherwise yield a second "singleton" self room (its key is built from this id).
      accountId: account.id,
      moduleCode: iss,
      customerAccountId: cid,
      platformAdmin: payload.pa === true && iss === options.platformModule,
    };
  };
}
