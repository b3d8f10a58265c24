// Builds one Fastify listener for one interface: request ids, Ajv 2020 validation, the interface's error
// envelope for every error (framework ones included), and its operations bound by fastify-openapi-glue.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { Logger } from '../logger.js';
import { newId } from '../ids.js';
import { ajv2020ValidatorCompiler } from './ajv.js';
import type { AppError } from './app-error.js';
import { routeNotFound, toAppError } from './framework-errors.js';
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
  authenticate?: (request: FastifyRequest, security: Array<Record<string, string[]>>) => Promise<void>;
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
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
  });
  app.setValidatorCompiler(ajv2020ValidatorCompiler());
  // Bodies are JSON only: without this, Fastify's built-in text/plain parser would let unvalidated strings in.
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (request, reply) => {
    reply.header(headerName, request.id);
  });

  const sendError = (error: AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.status >= 500) request.log.error({ err: error }, 'request failed');
    const rendered = options.renderError(error, request);
    for (const [k, v] of Object.entries({ ...error.headers, ...rendered.headers })) reply.header(k, v);
    return reply.code(error.status).type('application/json; charset=utf-8').send(rendered.body);
  };

  app.setErrorHandler((err, request, reply) => {
    const appError = toAppError(err);
    if (appError.status >= 500 && appError !== err) request.log.error({ err }, 'unhandled error');
    return sendError(appError, request, reply);
  });
  app.setNotFoundHandler((request, reply) => sendError(routeNotFound(request.method, request.url), request, reply));

  const security = securityByOperation(options.specification);
  const handlers = options.handlers as unknown as Record<string, RawHandler>;
  const authenticate = options.authenticate;

  await app.register(openapiGlue, {
    specification: options.specification,
    // The glue's typings want full RouteOptions; partial options are merged into its own route config.
    operationResolver: ((operationId: string) => {
      const handler = handlers[operationId];
      if (!handler) throw new Error(`No handler for operation ${operationId}`);
      const requirements = security.get(operationId) ?? [];
      return {
        ...(authenticate && requirements.length > 0
          ? { preValidation: async (request: FastifyRequest) => authenticate(request, requirements) }
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
