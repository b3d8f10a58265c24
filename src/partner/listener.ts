// The partner listener: the partner OpenAPI document bound to its handlers, behind the key gate (rate limit by IP,
// key, surface, scope), with Idempotency-Key records around key writes and the convention A error envelope.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountCache } from '../core/auth/account-cache.js';
import { createAuthenticator } from '../core/auth/authenticate.js';
import type { VerifyKeyCache } from '../core/auth/verify-key-cache.js';
import type { Logger } from '../platform/logger.js';
import { buildListener, type HttpTimeouts } from '../platform/http/server.js';
import { routeReadsByCaller } from '../platform/http/read-your-writes.js';
import { readPool } from '../platform/db/read-router.js';
import { loadSpecification } from '../platform/http/specification.js';
import type { Readiness } from '../platform/readiness.js';
import { apiKeyHandlers } from './api-keys/handlers.js';
import { partnerContextFactory, type PartnerContext } from './base/context.js';
import { crmHandlers } from './crm/handlers.js';
import type { PartnerDeps } from './base/deps.js';
import { partnerErrors, renderPartnerError } from './base/errors.js';
import { createGate, createOperationAuth, type GateParts } from './gate/gate.js';
import { requiredScopes } from '../platform/http/required-scopes.js';
import type { PartnerHandlers, PartnerOperations } from './base/handler-types.js';
import { idempotent, keyWriteOperations } from './idempotency/idempotent.js';
import type { IdempotencyStore } from './idempotency/store.js';
import { workspaceHandlers } from './workspaces/handlers.js';
import type { WebhookEngine } from '../core/webhooks/engine.js';
import { partnerWebhookHandlers } from './webhooks/handlers.js';
import { inboxHandlers } from './inbox/handlers.js';
import { channelHandlers } from './inbox/channel-handlers.js';
import { reportHandlers } from './reports/handlers.js';
import { kbHandlers } from './kb/handlers.js';
import { aiHandlers } from './ai/handlers.js';
import { storageHandlers } from './storage/handlers.js';
import { acceptOctetStream } from './storage/body-parser.js';
import type { MediaStore } from '../core/media/store.js';

export interface PartnerListenerOptions {
  deps: PartnerDeps;
  gate: GateParts;
  idempotency: IdempotencyStore;
  verifyKeys: VerifyKeyCache;
  accounts: AccountCache;
  log: Logger;
  bodyLimit: number;
  audience: string;
  maxTokenLifetimeSeconds: number;
  trustProxy: boolean | number;
  readiness: () => Promise<Readiness>;
  /** Browser origins (the settings console's) that may call this listener. */
  allowedOrigins?: () => readonly string[];
  /** The webhook engine shared with the workspace API; absent, /webhooks answers 404. */
  webhooks?: WebhookEngine;
  /** Socket timeouts (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS). */
  timeouts?: HttpTimeouts;
  /** The media store the chat's uploads use; /api/v1/storage keeps its bytes there. */
  media?: MediaStore;
}

export async function buildPartnerListener(options: PartnerListenerOptions): Promise<FastifyInstance> {
  const { deps } = options;
  const specification = await loadSpecification('partner');
  const handlers: PartnerHandlers = {
    ...crmHandlers(deps),
    ...workspaceHandlers(deps),
    ...apiKeyHandlers(deps),
    ...partnerWebhookHandlers(deps, options.webhooks),
    ...inboxHandlers(deps),
    ...channelHandlers(deps),
    ...reportHandlers(deps),
    ...kbHandlers(deps),
    ...aiHandlers(deps),
    ...storageHandlers(deps, options.media),
  };
  for (const operationId of keyWriteOperations(specification)) {
    const id = operationId as keyof PartnerHandlers;
    (handlers as Record<string, unknown>)[id] = idempotent(handlers[id], options.idempotency);
  }
  const authenticateUser = createAuthenticator(options.accounts, options.verifyKeys, deps.clock, {
    audience: options.audience,
    platformModule: deps.config.platformModule,
    maxTokenLifetimeSec: options.maxTokenLifetimeSeconds,
  });
  return buildListener<PartnerOperations, PartnerContext>({
    name: 'partner',
    log: options.log,
    bodyLimit: options.bodyLimit,
    timeouts: options.timeouts,
    specification,
    handlers,
    context: partnerContextFactory(deps.sql),
    onRequest: createGate(options.gate),
    authenticate: createOperationAuth(requiredScopes(specification), authenticateUser),
    requirePlatformAdmin: (request) => {
      if (!request.caller?.platformAdmin) throw partnerErrors.platformAdminRequired();
    },
    readiness: options.readiness,
    renderError: renderPartnerError,
    trustProxy: options.trustProxy,
    allowedOrigins: options.allowedOrigins,
    publicUrl: deps.config.partnerPublicUrl,
    // The document once named this path with a trailing slash; callers written against it keep working.
    pathAliases: { '/api/v1/partner/crm/': '/api/v1/partner/crm' },
    configure: (app) => {
      acceptOctetStream(app);
      routeReadsByCaller(app, deps.reads, partnerCallerOf, options.log);
      // Every GET operation is a list or a get: its handler reads through ctx.db, the routed pool.
      if (deps.reads) {
        app.addHook('preHandler', async (request) => {
          if (request.method === 'GET') request.partnerReadDb = await readPool(deps);
        });
      }
    },
  });
}

/** Whose writes a request's reads must see: the API key's, or the bearer user's on administration operations. */
function partnerCallerOf(request: FastifyRequest): string | undefined {
  if (request.apiKey) return `key:${request.apiKey.keyId}`;
  return request.caller ? `account:${request.caller.accountId}` : undefined;
}
