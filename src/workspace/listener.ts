// The workspace listener (convention B): the workspace OpenAPI document bound to its handlers, behind the svc_ key
// gate (key, IP allow-list, rate limit by plan, scope), with bearer-JWT administration of keys and the audit log,
// every request made with a key written to the audit log, and the { error, message } envelope for every error.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountCache } from '../core/auth/account-cache.js';
import { createAuthenticator } from '../core/auth/authenticate.js';
import type { VerifyKeyCache } from '../core/auth/verify-key-cache.js';
import { buildListener, type HttpTimeouts } from '../platform/http/server.js';
import { routeReadsByCaller } from '../platform/http/read-your-writes.js';
import { loadSpecification } from '../platform/http/specification.js';
import type { Logger } from '../platform/logger.js';
import type { Readiness } from '../platform/readiness.js';
import { auditHandlers } from './audit/handlers.js';
import type { AuditRecorder } from './audit/recorder.js';
import { workspaceContext, type WorkspaceContext } from './base/context.js';
import { approvalHandlers } from './approvals/handlers.js';
import { crmHandlers } from './crm/handlers.js';
import type { WorkspaceDeps } from './base/deps.js';
import { renderWorkspaceError } from './base/errors.js';
import { createAuditHook, createGate, createOperationAuth } from './gate/gate.js';
import { requiredScopes } from '../platform/http/required-scopes.js';
import type { KeyLookup } from './gate/key-lookup.js';
import { notificationHandlers } from './notifications/handlers.js';
import type { WorkspaceRateLimiter } from './gate/rate-limit.js';
import type { WorkspaceHandlers, WorkspaceOperations } from './base/handler-types.js';
import { healthHandlers } from './health/handlers.js';
import { hrHandlers } from './hr/handlers.js';
import { inboxHandlers } from './inbox/handlers.js';
import { svcKeyHandlers } from './keys/handlers.js';
import { scopeHandlers } from './scopes/handlers.js';
import { ticketHandlers } from './tickets/handlers.js';
import type { WebhookEngine } from '../core/webhooks/engine.js';
import { workspaceWebhookHandlers } from './webhooks/admin-handlers.js';
import { webhookHandlers } from './webhooks/handlers.js';

export interface WorkspaceListenerOptions {
  deps: WorkspaceDeps;
  keys: Pick<KeyLookup, 'find'>;
  limiter: Pick<WorkspaceRateLimiter, 'hit'>;
  audit: Pick<AuditRecorder, 'record'>;
  verifyKeys: VerifyKeyCache;
  accounts: AccountCache;
  maxTokenLifetimeSeconds: number;
  readiness: () => Promise<Readiness>;
  /** Browser origins (the settings console's) that may call this listener. */
  allowedOrigins?: () => readonly string[];
  log: Logger;
  bodyLimit: number;
  audience: string;
  trustProxy: boolean | number;
  webhooks: WebhookEngine;
  /** Socket timeouts (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS). */
  timeouts?: HttpTimeouts;
}

export async function buildWorkspaceListener(options: WorkspaceListenerOptions): Promise<FastifyInstance> {
  const { deps } = options;
  const specification = await loadSpecification('workspace');
  const handlers: WorkspaceHandlers = {
    ...healthHandlers(options.readiness),
    ...scopeHandlers(),
    ...svcKeyHandlers(deps),
    ...notificationHandlers(deps),
    ...auditHandlers(deps),
    ...crmHandlers(deps),
    ...inboxHandlers(deps),
    ...hrHandlers(deps),
    ...ticketHandlers(deps),
    ...approvalHandlers(deps),
    ...webhookHandlers(deps, options.webhooks),
    ...workspaceWebhookHandlers(deps, options.webhooks),
  };
  const authenticateUser = createAuthenticator(options.accounts, options.verifyKeys, deps.clock, {
    audience: options.audience,
    platformModule: deps.config.platformModule,
    maxTokenLifetimeSec: options.maxTokenLifetimeSeconds,
  });
  return buildListener<WorkspaceOperations, WorkspaceContext>({
    name: 'workspace',
    log: options.log,
    bodyLimit: options.bodyLimit,
    timeouts: options.timeouts,
    specification,
    handlers,
    context: workspaceContext,
    onRequest: createGate({ keys: options.keys, limiter: options.limiter, clock: deps.clock }),
    onResponse: createAuditHook(options.audit),
    authenticate: createOperationAuth(requiredScopes(specification), authenticateUser),
    renderError: renderWorkspaceError,
    trustProxy: options.trustProxy,
    readiness: options.readiness,
    allowedOrigins: options.allowedOrigins,
    publicUrl: deps.config.workspacePublicUrl,
    configure: (app) => routeReadsByCaller(app, deps.reads, svcCallerOf, options.log),
  });
}

/** Whose writes a request's reads must see: the svc_ key's, or the bearer user's on administration operations. */
function svcCallerOf(request: FastifyRequest): string | undefined {
  if (request.svcKey) return `svc:${request.svcKey.keyId}`;
  return request.caller ? `account:${request.caller.accountId}` : undefined;
}
