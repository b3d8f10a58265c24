// Builds one Fastify listener for one interface: request ids, Ajv 2020 validation, the interface's error
// envelope for every error (framework ones included), and its operations bound by fastify-openapi-glue.
import { createServer, STATUS_CODES, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { Logger } from '../logger.js';
import { newId } from '../ids.js';
import type { Readiness } from '../readiness.js';
import { maxBodyDepth, nestsDeeperThan } from '../json-depth.js';
import { illFormedPath } from '../unicode.js';
import { ajv2020ValidatorCompiler } from './ajv.js';
import { compilesOnFirstUse, serializersOnFirstUse } from './schema-compilation.js';
import { clientErrorPath } from './client-error-path.js';
import { corsHook } from './cors.js';
import { closeConnectionsOnDrain } from './drain-close.js';
import { isPublicPath, registerReferenceDocs, type ExtraDocument } from './reference-docs.js';
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
import type { ContextFactory, HandlerMap, Result } from './typed.js';

export interface ErrorRendering {
  body: unknown;
  headers?: Record<string, string>;
}

/** What a renderer may read of the request: errors raised before Fastify made a request have only an id. */
export type ErrorRequest = Pick<FastifyRequest, 'id'>;

/** Socket timeouts of a listener (see loadConfig: REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS). */
export interface HttpTimeouts {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

const defaultTimeouts: HttpTimeouts = { requestTimeoutMs: 60_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 65_000 };

export interface ListenerOptions<Ops, Ctx> {
  name: string;
  log: Logger;
  bodyLimit: number;
  /** The OpenAPI document served by this listener. */
  specification: Record<string, unknown>;
  handlers: HandlerMap<Ops, Ctx>;
  context: ContextFactory<Ctx>;
  /**
   * Runs before the body is read on operations whose spec requires security; throws an AppError to refuse. A
   * refused caller learns nothing about the body the operation expects.
   */
  authenticate?: (request: FastifyRequest, security: Array<Record<string, string[]>>, operationId: string) => Promise<void>;
  /**
   * Runs right after authentication on operations the spec marks `x-platform-admin: true`; throws an AppError when
   * the authenticated caller is not a platform administrator. Required when the spec marks any operation.
   */
  requirePlatformAdmin?: (request: FastifyRequest) => void;
  /** Runs first on every request, routed or not (a gate such as a rate limit); throws an AppError to refuse. */
  onRequest?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Database and Redis state, for /readyz when the spec does not declare it. */
  readiness: () => Promise<Readiness>;
  /** Runs once every response has been sent, whatever its status (an audit log). */
  onResponse?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Fastify trustProxy: whether request.ip comes from X-Forwarded-For. */
  trustProxy?: boolean | number;
  /**
   * What the JSON parser does with `__proto__` and `constructor.prototype` keys: refuse the body (400, the default) or
   * drop those keys (an interface whose bodies take unknown fields and ignore them, where such a key is one more).
   */
  poisonedJsonKeys?: 'error' | 'remove';
  /** Renders an error in this interface's envelope. */
  renderError: (error: AppError, request: ErrorRequest) => ErrorRendering;
  /** Socket timeouts; the configuration's defaults when absent. */
  timeouts?: HttpTimeouts;
  /** Name of the response header carrying the request id. */
  requestIdHeader?: string;
  /** Browser origins (the settings console's) that may call this listener; read on every request. */
  allowedOrigins?: () => readonly string[];
  /** More documents rendered by /docs beside the listener's own, each at /openapi/<slug>.json. */
  extraDocuments?: ExtraDocument[];
  /** The `servers` URL of the documents this listener serves (CHAT_PUBLIC_URL etc.); undefined: the spec's "/". */
  publicUrl?: string;
  /** Undocumented paths answered as another path (old spellings kept for existing callers): alias → path. */
  pathAliases?: Record<string, string>;
  /**
   * Sees every raw request first and returns true when it took it (another interface sharing this port, as the Bot
   * API shares the chat port); the others go through this listener.
   */
  divert?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /**
   * The envelope for errors Node raises before routing (408, 431, not HTTP) on a request path another interface
   * sharing this port owns (the Bot API's /bot paths); undefined keeps the listener's own renderError.
   */
  clientErrorRenderer?: (path: string) => ListenerOptions<Ops, Ctx>['renderError'] | undefined;
  /** Adds to the instance before the operations are registered (content type parsers reach them only so). */
  configure?: (app: FastifyInstance) => void;
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

type RawHandler = (
  input: { params: unknown; query: unknown; body: unknown },
  ctx: unknown,
) => Promise<Result<unknown> & { status: number; body: unknown; location?: string; headers?: Record<string, string> }>;

function securityByOperation(spec: Record<string, unknown>): Map<string, Array<Record<string, string[]>>> {
  const result = new Map<string, Array<Record<string, string[]>>>();
  const globalSecurity = (spec.security as Array<Record<string, string[]>>) ?? [];
  const paths = (spec.paths ?? {}) as Record<string, Record<string, { operationId?: string; security?: Array<Record<string, string[]>> }>>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.operationId) {
        const security = (op.security ?? globalSecurity).filter((s) => Object.keys(s).length > 0);
        // An empty requirement object in the list means the operation may also be called anonymously.
        const anonymousAllowed = (op.security ?? globalSecurity).some((s) => Object.keys(s).length === 0);
        result.set(op.operationId, anonymousAllowed ? [] : security);
      }
    }
  }
  return result;
}

type PathItem = Record<string, { operationId?: string; requestBody?: { required?: boolean } }>;

/** Operations whose spec carries `x-platform-admin: true`. */
function platformAdminOperations(spec: Record<string, unknown>): Set<string> {
  const result = new Set<string>();
  for (const item of Object.values(
    (spec.paths ?? {}) as Record<string, Record<string, { operationId?: string; 'x-platform-admin'?: unknown }>>,
  )) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.operationId && op['x-platform-admin'] === true) result.add(op.operationId);
    }
  }
  return result;
}

/** Operations whose spec marks the request body as required. */
function operationsRequiringBody(spec: Record<string, unknown>): Set<string> {
  const result = new Set<string>();
  for (const item of Object.values((spec.paths ?? {}) as Record<string, PathItem>)) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.operationId && op.requestBody?.required === true) result.add(op.operationId);
    }
  }
  return result;
}

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface PathTemplate {
  segments: Array<string | null>; // null: a {parameter}
  methods: string[];
}

/**
 * The spec's paths, to tell "no such resource" (404) from "no such method on this resource" (405 with Allow).
 * A concrete path belongs to the most specific matching template: a literal segment beats a parameter at the
 * first place they differ, as in Fastify's router (so /api/v1/rooms/self is the self-room resource, not a room id).
 */
function pathTemplates(spec: Record<string, unknown>): PathTemplate[] {
  return Object.entries((spec.paths ?? {}) as Record<string, PathItem>).map(([template, item]) => {
    const methods = Object.keys(item)
      .filter((m) => httpMethods.includes(m))
      .map((m) => m.toUpperCase());
    // Fastify answers HEAD on every GET route.
    if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
    return { segments: template.split('/').map((s) => (/^\{[^}]+\}$/.test(s) ? null : s)), methods };
  });
}

/** Liveness and readiness: every listener answers them, outside any gate, declared in its spec or not. */
const healthPaths = ['/healthz', '/readyz'];

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}

function resourceOf(templates: PathTemplate[], url: string): PathTemplate | undefined {
  const segments = (url.split('?')[0] ?? '').split('/');
  let best: PathTemplate | undefined;
  for (const t of templates) {
    if (t.segments.length !== segments.length) continue;
    if (!t.segments.every((s, i) => (s === null ? segments[i] !== '' : s === segments[i]))) continue;
    if (!best) best = t;
    else {
      const i = t.segments.findIndex((s, k) => (s === null) !== (best!.segments[k] === null));
      if (i >= 0 && t.segments[i] !== null) best = t;
    }
  }
  return best;
}

const assertionKeywords = new Set([
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'items',
  'prefixItems',
  'contains',
  'minProperties',
  'maxProperties',
  'required',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
]);

/**
 * fastify-openapi-glue inlines every `$ref` by replacing the object that holds it, which drops keywords beside
 * the `$ref` (valid in OpenAPI 3.1 / JSON Schema 2020-12): `{ $ref: text, maxLength: 200 }` was validated as
 * plain text, without its length limits. Moving the `$ref` into an `allOf` keeps both.
 */
function keepRefSiblings(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(keepRefSiblings);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, keepRefSiblings(v)] as const);
  const obj = Object.fromEntries(entries) as Record<string, unknown>;
  if (typeof obj.$ref === 'string' && Object.keys(obj).some((k) => assertionKeywords.has(k))) {
    const { $ref, ...rest } = obj;
    return { ...rest, allOf: [{ $ref }, ...((rest.allOf as unknown[] | undefined) ?? [])] };
  }
  return obj;
}

/**
 * Node delivers header names in lower case, and Fastify validates request.headers as delivered: a header parameter
 * declared as `Idempotency-Key` would always be missing. Header parameter names are lowered for validation.
 */
function lowercaseHeaderParameters(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lowercaseHeaderParameters);
  if (node === null || typeof node !== 'object') return node;
  const obj = Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, lowercaseHeaderParameters(v)]));
  if (obj.in === 'header' && typeof obj.name === 'string') obj.name = obj.name.toLowerCase();
  return obj;
}

/** A server that hands some requests (divert answers true) to another handler before Fastify sees them. */
function divertingServer(divert: (req: IncomingMessage, res: ServerResponse) => boolean, http: ServerOptions, keepAliveTimeout: number) {
  return (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
    const server = createServer(http, (req, res) => {
      if (!divert(req, res)) handler(req, res);
    });
    server.keepAliveTimeout = keepAliveTimeout;
    return server;
  };
}

/** The id of the request a response belongs to, kept on the raw response for errors raised on its socket. */
const rawRequestId = Symbol('requestId');

/**
 * Answers on the bare socket, for errors Node raises before Fastify has a request (or while a request's body is
 * still arriving): the interface's envelope and the request id as on any other response, then the connection closes.
 */
function writeSocketError(socket: Socket, error: AppError, id: string, rendered: ErrorRendering, headerName: string): void {
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify(rendered.body);
    const headers: Record<string, string> = {
      ...error.headers,
      ...rendered.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      [headerName]: id,
      connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n${head}\r\n${body}`);
  }
  socket.destroy();
}

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
