// What an interface hands buildListener: its spec and handlers, its error envelope, its gate, its timeouts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { Readiness } from '../readiness.js';
import type { AppError } from './app-error.js';
import type { ExtraDocument } from './reference-docs.js';
import type { ContextFactory, HandlerMap } from './typed.js';

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

export const defaultTimeouts: HttpTimeouts = { requestTimeoutMs: 60_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 65_000 };

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
