// fastify-openapi-glue's per-operation authentication, the same in both key conventions: an operation secured by the
// key scheme has its key checked against the scope the spec names for it; any other operation authenticates a user.
import type { FastifyRequest } from 'fastify';

export interface OperationAuthParts {
  /** The security scheme of key operations (api-key, svc-key). */
  keyScheme: string;
  /** Operation id → the scope it needs (requiredScopes of the interface's document). */
  scopes: Map<string, string>;
  /** Refuses a key operation whose request has no key, or whose key does not grant the scope (when one is named). */
  checkKey(request: FastifyRequest, scope: string | undefined): void;
  /** Authenticates the user of an administration operation. */
  authenticateUser(request: FastifyRequest): Promise<void>;
}

export function operationAuth(parts: OperationAuthParts) {
  return async function authenticate(
    request: FastifyRequest,
    security: Array<Record<string, string[]>>,
    operationId: string,
  ): Promise<void> {
    const schemes = security.flatMap((s) => Object.keys(s));
    if (schemes.includes(parts.keyScheme)) return parts.checkKey(request, parts.scopes.get(operationId));
    await parts.authenticateUser(request);
  };
}
