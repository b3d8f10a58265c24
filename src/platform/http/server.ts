// Builds one Fastify listener for one interface: request ids, Ajv 2020 validation, the interface's error
// envelope for every error (framework ones included), and its operations bound by fastify-openapi-glue.
import type { ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { newId } from '../ids.js';
import { maxBodyDepth, nestsDeeperThan } from '../json-depth.js';
import { illFormedPath } from '../unicode.js';
import { ajv2020ValidatorCompiler } from './ajv.js';
import { compilesOnFirstUse, serializersOnFirstUse } from './schema-compilation.js';
import { clientErrorPath, keepPendingRequestHeads } from './client-error-path.js';
import { corsHook } from './cors.js';
import { closeConnectionsOnDrain } from './drain-close.js';
import { isPublicPath, registerReferenceDocs } from './reference-docs.js';
import { aliasRewriter } from './path-aliases.js';
import { AppError } from './app-error.js';
import { httpMetricsHook } from '../metrics/http.js';
import { tracingOn } from '../tracing/state.js';
import { endRequestSpan, enterRequestSpan, resumeRequestSpan, startRequestSpan } from '../tracing/http.js';
import {
  bodyMissing,
  bodyTooDeep,
  clientErrorOf,
  illFormedUnicode,
  methodNotAllowed,
  routeNotFound,
  toAppError,
} from './framework-errors.js';
import type { Result } from './typed.js';
import { defaultTimeouts, type ListenerOptions } from './listener-options.js';
import { divertingServer, rawRequestId, writeSocketError } from './raw-socket.js';
import { keepRefSiblings, lowercaseHeaderParameters } from './schema-rewrites.js';
import {
  healthPaths,
  operationsRequiringBody,
  pathOf,
  pathTemplates,
  platformAdminOperations,
  resourceOf,
  securityByOperation,
} from './spec-operations.js';

export type { ErrorRendering, ErrorRequest, HttpTimeouts, ListenerOptions } from './listener-options.js';

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

type RawHandler = (
  input: { params: unknown; query: unknown; body: unknown },
  ctx: unknown,
) => Promise<Result<unknown> & { status: number; body: unknown; location?: string; headers?: Record<string, string> }>;

/** Answers an error in the interface's envelope, with the request id and the error's headers. */
type SendError = (error: AppError, request: FastifyRequest, reply: FastifyReply) => FastifyReply;

export async function buildListener<Ops, Ctx>(options: ListenerOptions<Ops, Ctx>): Promise<FastifyInstance> {
  const headerName = options.requestIdHeader ?? 'x-request-id';
  const sendError: SendError = (error, request, reply) => {
    // 503: PostgreSQL or Redis unreachable; one warning per request, the cause is logged where it is known.
    if (error.status >= 500 && error.status !== 503) request.log.error({ err: error }, 'request failed');
    const rendered = options.renderError(error, request);
    // Set here too: errors of the router are answered before any hook has run.
    reply.header(headerName, request.id);
    for (const [k, v] of Object.entries({ ...error.headers, ...rendered.headers })) reply.header(k, v);
    return reply.code(error.status).type('application/json; charset=utf-8').send(rendered.body);
  };
  const app = createFastify(options, headerName, sendError);
  app.setValidatorCompiler(ajv2020ValidatorCompiler());
  if (tracingOn()) {
    // First of the hooks, so that the gates' and the handler's SQL and Redis calls are children of the request's span.
    app.addHook('onRequest', enterRequestSpan);
    app.addHook('preHandler', resumeRequestSpan);
    app.addHook('onResponse', async (request, reply) => endRequestSpan(request, reply));
    app.addHook('onRequestAbort', async (request) => endRequestSpan(request, undefined));
  }
  closeConnectionsOnDrain(app as unknown as FastifyInstance);
  if (options.clientErrorRenderer) keepPendingRequestHeads(app.server);
  // Bodies are JSON only: without this, Fastify's built-in text/plain parser would let unvalidated strings in.
  app.removeContentTypeParser('text/plain');
  options.configure?.(app as unknown as FastifyInstance);
  installRequestHooks(app as unknown as FastifyInstance, options, headerName);
  installRoutingAnswers(app as unknown as FastifyInstance, options, sendError);
  await app.register(openapiGlue, {
    specification: lowercaseHeaderParameters(keepRefSiblings(options.specification)) as Record<string, unknown>,
    // The glue's typings want full RouteOptions; partial options are merged into its own route config.
    operationResolver: operationResolver(options) as never,
  });
  await registerReferenceDocs(
    app as unknown as FastifyInstance,
    options.name,
    options.specification,
    options.extraDocuments,
    options.publicUrl,
  );
  return app as unknown as FastifyInstance;
}

/** The Fastify instance with the listener's socket timeouts, request ids, proxies and errors raised before routing. */
function createFastify<Ops, Ctx>(options: ListenerOptions<Ops, Ctx>, headerName: string, sendError: SendError) {
  const timeouts = options.timeouts ?? defaultTimeouts;
  const httpOptions: ServerOptions = {
    requestTimeout: timeouts.requestTimeoutMs,
    headersTimeout: timeouts.headersTimeoutMs,
    // Node looks for expired requests every 30 s by default, which would let a slow client run that much over.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(timeouts.headersTimeoutMs / 4))),
  };
  const log = options.log.child({ listener: options.name });
  return Fastify({
    loggerInstance: log,
    bodyLimit: options.bodyLimit,
    onProtoPoisoning: options.poisonedJsonKeys ?? 'error',
    onConstructorPoisoning: options.poisonedJsonKeys ?? 'error',
    genReqId: (req) => {
      // Tracing on: the request id is the trace id of the request's span.
      if (tracingOn()) return startRequestSpan(req, options.name);
      const incoming = req.headers[headerName];
      return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : newId();
    },
    ...(compilesOnFirstUse() ? { schemaController: { compilersFactory: { buildSerializer: serializersOnFirstUse() } } } : {}),
    // While the listener drains, a request that arrives on an open keep-alive connection is still served (with
    // Connection: close) rather than refused with a bare 503: the database and Redis are up until the drain ends.
    return503OnClosing: false,
    // A hop count trusts that many proxies nearest to this server.
    trustProxy:
      typeof options.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (options.trustProxy as number)
        : (options.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    ...(options.pathAliases ? { rewriteUrl: aliasRewriter(options.pathAliases) } : {}),
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    http: httpOptions,
    ...(options.divert ? { serverFactory: divertingServer(options.divert, httpOptions, timeouts.keepAliveTimeoutMs) } : {}),
    // A path that is not valid percent-encoding, a path segment over maxParamLength.
    frameworkErrors: (error, request, reply) => sendError(toAppError(error), request, reply),
    clientErrorHandler: (error, socket) => {
      const appError = clientErrorOf(error as { code?: string });
      if (!appError || socket.destroyed) return void socket.destroy();
      const inFlight = (socket as Socket & { _httpMessage?: (ServerResponse & { [rawRequestId]?: string }) | null })._httpMessage;
      const id = inFlight?.[rawRequestId] ?? newId();
      log.debug({ err: error, requestId: id }, 'client error');
      const path = clientErrorPath(socket, error as { rawPacket?: unknown });
      const render = (path !== undefined ? options.clientErrorRenderer?.(path) : undefined) ?? options.renderError;
      writeSocketError(socket, appError, id, render(appError, { id }), headerName);
    },
  });
}

/** Hooks every request passes, routed or not: its id on the response, CORS, the interface's gate, metrics, audit. */
function installRequestHooks<Ops, Ctx>(app: FastifyInstance, options: ListenerOptions<Ops, Ctx>, headerName: string): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(headerName, request.id);
    (reply.raw as ServerResponse & { [rawRequestId]?: string })[rawRequestId] = request.id;
  });
  if (options.allowedOrigins) app.addHook('onRequest', corsHook(options.allowedOrigins));
  const gate = options.onRequest;
  if (gate) {
    // Probes of load balancers and orchestrators, the reference docs and the console pass no gate (no key, no
    // rate counter).
    app.addHook('onRequest', async (request, reply) => {
      if (!isPublicPath(pathOf(request.url))) await gate(request, reply);
    });
  }
  app.addHook('onResponse', httpMetricsHook(options.name));
  if (options.onResponse) app.addHook('onResponse', options.onResponse);
}

/** What a request that no operation takes is answered: 404, 405 with Allow, OPTIONS, the health probes, errors. */
function installRoutingAnswers<Ops, Ctx>(app: FastifyInstance, options: ListenerOptions<Ops, Ctx>, sendError: SendError): void {
  const templates = pathTemplates(options.specification);
  const undeclaredHealth = healthPaths.filter((path) => !templates.some((t) => t.segments.join('/') === path));
  for (const path of undeclaredHealth) templates.push({ segments: path.split('/'), methods: ['GET', 'HEAD'] });
  /**
   * No route matched: 405 with Allow when the path is a resource of the spec that lacks this method (RFC 9110
   * 15.5.6), an answer to OPTIONS listing the methods, else 404.
   */
  const noRoute = (request: FastifyRequest, reply: FastifyReply) => {
    const resource = resourceOf(templates, request.url);
    if (resource && request.method === 'OPTIONS') return reply.code(204).header('allow', resource.methods.join(', ')).send();
    if (resource && !resource.methods.includes(request.method))
      return sendError(methodNotAllowed(request.method, request.url, resource.methods), request, reply);
    return sendError(routeNotFound(request.method, request.url), request, reply);
  };

  app.setErrorHandler((err, request, reply) => {
    // Fastify reads the body of unmatched requests too (e.g. QUERY without Content-Type fails there); the answer to
    // a request that matched no route is about routing, whatever its body.
    // An AppError was thrown on purpose (by a gate) and is the answer even for an unknown path.
    if (request.is404 && !(err instanceof AppError)) return noRoute(request, reply);
    const appError = toAppError(err);
    if (appError.status === 503 && appError !== err) request.log.warn({ err }, 'database or cache unreachable');
    else if (appError.status >= 500 && appError !== err) request.log.error({ err }, 'unhandled error');
    return sendError(appError, request, reply);
  });
  app.setNotFoundHandler(noRoute);
  // The router falls back from a literal segment to a parameter when the literal route lacks the method (GET
  // /api/v1/rooms/self would reach getRoom with id "self"); such a request is for the literal resource.
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    const own = (request.routeOptions.url ?? '').split('/').map((s) => (s.startsWith(':') ? null : s));
    const resource = resourceOf(templates, request.url);
    if (resource && (resource.segments.length !== own.length || resource.segments.some((s, i) => s !== own[i]))) {
      return noRoute(request, reply);
    }
  });

  // Same bodies as the chat spec's health operations; a listener that declares them serves its own handlers.
  if (undeclaredHealth.includes('/healthz')) app.get('/healthz', async () => ({ status: 'ok' }));
  if (undeclaredHealth.includes('/readyz')) {
    app.get('/readyz', async (_request, reply) => {
      const r = await options.readiness();
      return reply.code(r.ready ? 200 : 503).send({ status: r.ready ? 'ok' : 'fail', checks: r.checks });
    });
  }
}

/**
 * fastify-openapi-glue's resolver: each operationId's route with who may call it (before the body is read), the
 * checks no schema keyword makes, and the hand-written handler.
 */
function operationResolver<Ops, Ctx>(options: ListenerOptions<Ops, Ctx>) {
  const security = securityByOperation(options.specification);
  const requiresBody = operationsRequiringBody(options.specification);
  const adminOnly = platformAdminOperations(options.specification);
  if (adminOnly.size > 0 && !options.requirePlatformAdmin)
    throw new Error(`${options.name}: the spec marks platform-admin operations but the listener cannot check the role`);
  const handlers = options.handlers as unknown as Record<string, RawHandler>;
  const authenticate = options.authenticate;
  const requirePlatformAdmin = options.requirePlatformAdmin;
  return (operationId: string) => {
    const handler = handlers[operationId];
    if (!handler) throw new Error(`No handler for operation ${operationId}`);
    const requirements = security.get(operationId) ?? [];
    const authenticates = authenticate !== undefined && requirements.length > 0;
    const adminRequired = adminOnly.has(operationId);
    const bodyRequired = requiresBody.has(operationId);
    return {
      // Who may call comes before anything about the request itself: before the body is read (413, 415,
      // malformed JSON) and before it is validated.
      ...(authenticates || adminRequired
        ? {
            preParsing: async (request: FastifyRequest) => {
              if (authenticates) await authenticate(request, requirements, operationId);
              if (adminRequired) requirePlatformAdmin!(request);
            },
          }
        : {}),
      preValidation: async (request: FastifyRequest) => {
        // Fastify picks the body schema by Content-Type, so a request without Content-Type and body
        // skips body validation and would reach the handler with no body at all.
        if (bodyRequired && request.body === undefined) throw bodyMissing();
        // Before anything walks the body (this check, Ajv, fingerprints): past the bound a walk could overflow the stack.
        if (nestsDeeperThan(request.body, maxBodyDepth)) throw bodyTooDeep();
        // JSON.parse turns a "\ud800" escape into a lone surrogate, which no schema keyword catches.
        for (const [part, value] of [
          ['body', request.body],
          ['query', request.query],
        ] as const) {
          const path = illFormedPath(value);
          if (path) throw illFormedUnicode([part, ...path].join('.'));
        }
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const result = await handler({ params: request.params, query: request.query, body: request.body }, options.context(request));
        if (result.location) reply.header('location', result.location);
        for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
        reply.code(result.status);
        return result.body;
      },
    };
  };
}
