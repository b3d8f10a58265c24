// Bearer JWT authentication for the chat service. Identity comes only from a token verified against a key
// registered for its issuer (module) and customer, and from the account row, read on every call so that a
// deactivated or banned account is refused at once even with an unexpired token.
import type { FastifyRequest } from 'fastify';
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Orm } from '../../platform/db/orm.js';
import type { Clock } from '../../platform/clock.js';
import { isUuid } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import { chatErrors } from '../errors.js';
import type { VerifyKeyCache } from './verify-key-cache.js';

export interface AuthOptions {
  audience: string;
  platformModule: string;
  /** Tolerated clock difference between token issuers and this service. */
  clockToleranceSec?: number;
}

interface ChatClaims extends JWTPayload {
  cid?: unknown;
  pa?: unknown;
}

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw chatErrors.unauthenticated();
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (!match?.[1]) throw chatErrors.tokenMalformed('expected "Bearer <jwt>"');
  return match[1];
}

function unverifiedParts(token: string): { claims: ChatClaims; kid: string | undefined } {
  try {
    const claims = decodeJwt(token) as ChatClaims;
    const header = decodeProtectedHeader(token);
    return { claims, kid: typeof header.kid === 'string' ? header.kid : undefined };
  } catch {
    throw chatErrors.tokenMalformed('it does not decode as a JWS compact token');
  }
}

export function createAuthenticator(orm: Orm, keys: VerifyKeyCache, clock: Clock, options: AuthOptions) {
  return async function authenticate(request: FastifyRequest): Promise<Caller> {
    const token = bearerToken(request);
    const { claims, kid } = unverifiedParts(token);
    if (typeof claims.iss !== 'string' || typeof claims.cid !== 'string') {
      throw chatErrors.tokenInvalid('the iss (module) and cid (customer account) claims are required');
    }
    const candidates = (await keys.keysFor(claims.iss, claims.cid)).filter((k) => kid === undefined || k.kid === kid);
    if (candidates.length === 0) throw chatErrors.unknownSigningKey();

    let payload: ChatClaims | undefined;
    let lastError: unknown;
    for (const candidate of candidates) {
      try {
        const verified = await jwtVerify(token, candidate.key, {
          algorithms: [candidate.algorithm],
          issuer: claims.iss,
          audience: options.audience,
          requiredClaims: ['exp', 'sub'],
          currentDate: clock.now(),
          clockTolerance: options.clockToleranceSec ?? 30,
        });
        payload = verified.payload as ChatClaims;
        break;
      } catch (err) {
        lastError = err;
        if (!(err instanceof joseErrors.JWSSignatureVerificationFailed)) break;
      }
    }
    if (!payload) {
      if (lastError instanceof joseErrors.JWTExpired) throw chatErrors.tokenExpired();
      if (lastError instanceof joseErrors.JWTClaimValidationFailed && lastError.claim === 'aud') throw chatErrors.audienceMismatch(options.audience);
      if (lastError instanceof joseErrors.JWTClaimValidationFailed) throw chatErrors.tokenInvalid(`claim ${lastError.claim} ${lastError.reason}`);
      if (lastError instanceof joseErrors.JWSSignatureVerificationFailed) throw chatErrors.tokenInvalid('the signature does not verify');
      throw chatErrors.tokenInvalid('it could not be verified');
    }
    if (typeof payload.sub !== 'string' || !isUuid(payload.sub)) throw chatErrors.tokenInvalid('sub must be an account uuid');

    const rows = await orm.em
      .fork()
      .getConnection()
      .execute<Array<{ id: string; status: string; module_code: string; customer_account_id: string }>>(
        'select id, status, module_code, customer_account_id from accounts where id = ?',
        [payload.sub],
      );
    const account = rows[0];
    if (!account) throw chatErrors.accountUnknown();
    // A module's keys only vouch for that module's own accounts of that customer.
    if (account.module_code !== claims.iss || account.customer_account_id !== claims.cid) {
      throw chatErrors.tokenInvalid('the issuer does not own this account');
    }
    if (account.status === 'DEACTIVATED') throw chatErrors.accountDeactivated();
    if (account.status === 'BANNED') throw chatErrors.accountBanned();
    return {
      // The stored (canonical, lowercase) id, not sub as written: an upper-case sub matches the same row but
      // would otherwise yield a second "singleton" self room (its key is built from this id).
      accountId: account.id,
      moduleCode: claims.iss,
      customerAccountId: claims.cid,
      platformAdmin: payload.pa === true && claims.iss === options.platformModule,
    };
  };
}
