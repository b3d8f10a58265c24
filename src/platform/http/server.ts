// Builds one Fastify listener for one interface: request ids, Ajv 2020 validation, the interface's error
// envelope for every error (framework ones included), and its operations bound by fastify-openapi-glue.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { Logger } from '../logger.js';
import { newId } from '../ids.js';
import { ajv2020ValidatorCompiler } from './ajv.js';
import { AppError } from './app-error.js';
import { bodyMissing, methodNotAllowed, routeNotFound, toAppError } from './framework-errors.js';
import type { ContextFactory, HandlerMap, Result } from './typed.js';

export interface ErrorRendering {
  body: unknown;
  headers?: Record<string, string>;
}

export interface ListenerOptions<Ops, Ctx> {
  name: string;
  log: Logger;
  bodyLimit: number;
  /** The OpenAPI document served by this listener. */
  specification: Record<string, unknown>;
  handlers: HandlerMap<Ops, Ctx>;
  context: ContextFactory<Ctx>;
  /** Runs before validation on operations whose spec requires security; throws an AppError to refuse. */
  authenticate?: (request: FastifyRequest, security: Array<Record<string, string[]>>, operationId: string) => Promise<void>;
  /** Runs first on every request, routed or not (a gate such as a rate limit); throws an AppError to refuse. */
  onRequest?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Runs once every response has been sent, whatever its status (an audit log). */
  onResponse?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Fastify trustProxy: whether request.ip comes from X-Forwarded-For. */
  trustProxy?: boolean | number;
  /** Renders an error in this interface's envelope. */
  renderError: (error: AppError, request: FastifyRequest) => ErrorRendering;
  /** Name of the response header carrying the request id. */
  requestIdHeader?: string;
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

type RawHandler = (input: { params: unknown; query: unknown; body: unknown }, ctx: unknown) => Promise<Result<unknown> & { status: number; body: unknown; location?: string }>;

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
    const methods = Object.keys(item).filter((m) => httpMethods.includes(m)).map((m) => m.toUpperCase());
    // Fastify answers HEAD on every GET route.
    if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
    return { segments: template.split('/').map((s) => (/^\{[^}]+\}$/.test(s) ? null : s)), methods };
  });
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
  'type', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'items', 'prefixItems', 'contains',
  'minProperties', 'maxProperties', 'required', 'properties', 'patternProperties', 'additionalProperties',
  'unevaluatedProperties', 'unevaluatedItems', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else',
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

export async function buildListener<Ops, Ctx>(options: ListenerOptions<Ops, Ctx>): Promise<FastifyInstance> {
  const headerName = options.requestIdHeader ?? 'x-request-id';
  const app = Fastify({
    loggerInstance: options.log.child({ listener: options.name }),
    bodyLimit: options.bodyLimit,
    genReqId: (req) => {
      const incoming = req.headers[headerName];
      return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : newId();
    },
    return503OnClosing: true,
    // A hop count trusts that many proxies nearest to this server.
    trustProxy: typeof options.trustProxy === 'number' ? (_address: string, hop: number) => hop < (options.trustProxy as number) : (options.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
  });
  app.setValidatorCompiler(ajv2020ValidatorCompiler());
  // Bodies are JSON only: without this, Fastify's built-in text/plain parser would let unvalidated strings in.
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (request, reply) => {
    reply.header(headerName, request.id);
  });
  if (options.onRequest) app.addHook('onRequest', options.onRequest);
  if (options.onResponse) app.addHook('onResponse', options.onResponse);

  const sendError = (error: AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.status >= 500) request.log.error({ err: error }, 'request failed');
    const rendered = options.renderError(error, request);
    for (const [k, v] of Object.entries({ ...error.headers, ...rendered.headers })) reply.header(k, v);
    return reply.code(error.status).type('application/json; charset=utf-8').send(rendered.body);
  };

  const templates = pathTemplates(options.specification);
  /**
   * No route matched: 405 with Allow when the path is a resource of the spec that lacks this method (RFC 9110
   * 15.5.6), an answer to OPTIONS listing the methods, else 404.
   */
  const noRoute = (request: FastifyRequest, reply: FastifyReply) => {
    const resource = resourceOf(templates, request.url);
    if (resource && request.method === 'OPTIONS') return reply.code(204).header('allow', resource.methods.join(', ')).send();
    if (resource && !resource.methods.includes(request.method)) return sendError(methodNotAllowed(request.method, request.url, resource.methods), request, reply);
    return sendError(routeNotFound(request.method, request.url), request, reply);
  };

  app.setErrorHandler((err, request, reply) => {
    // Fastify reads the body of unmatched requests too (e.g. QUERY without Content-Type fails there); the answer to
    // a request that matched no route is about routing, whatever its body.
    // An AppError was thrown on purpose (by a gate) and is the answer even for an unknown path.
    if (request.is404 && !(err instanceof AppError)) return noRoute(request, reply);
    const appError = toAppError(err);
    if (appError.status >= 500 && appError !== err) request.log.error({ err }, 'unhandled error');
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

  const security = securityByOperation(options.specification);
  const requiresBody = operationsRequiringBody(options.specification);
  const handlers = options.handlers as unknown as Record<string, RawHandler>;
  const authenticate = options.authenticate;

  await app.register(openapiGlue, {
    specification: lowercaseHeaderParameters(keepRefSiblings(options.specification)) as Record<string, unknown>,
    // The glue's typings want full RouteOptions; partial options are merged into its own route config.
    operationResolver: ((operationId: string) => {
      const handler = handlers[operationId];
      if (!handler) throw new Error(`No handler for operation ${operationId}`);
      const requirements = security.get(operationId) ?? [];
      const authenticates = authenticate !== undefined && requirements.length > 0;
      const bodyRequired = requiresBody.has(operationId);
      return {
        ...(authenticates || bodyRequired
          ? {
              preValidation: async (request: FastifyRequest) => {
                if (authenticates) await authenticate(request, requirements, operationId);
                // Fastify picks the body schema by Content-Type, so a request without Content-Type and body
                // skips body validation and would reach the handler with no body at all.
                if (bodyRequired && request.body === undefined) throw bodyMissing();
              },
            }
          : {}),
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          const result = await handler(
            { params: request.params, query: request.query, body: request.body },
            options.context(request),
          );
          if (result.location) reply.header('location', result.location);
          reply.code(result.status);
          return result.body;
        },
      };
    }) as never,
  });
  return app as unknown as FastifyInstance;
}
