// Request and result types of every operation, derived from the generated schema with openapi-fetch's own helper
// types. Nothing here restates a shape of the API: change the spec, regenerate, and these follow.
import type { FetchResponse, HeadersOptions, RequestBodyOption } from 'openapi-fetch';
import type { OperationId } from './operations.js';
import type { ChatApiError } from './errors.js';
import type { components, operations } from './schema.js';

/** Flattens intersections so editors show one object type. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

export type Schemas = components['schemas'];

/** The body of every chat error response, as the spec declares it. */
export type ErrorEnvelope = Schemas['Envelope.ErrorEnvelope'];

/** Every code the chat service's error envelope can carry (the spec's enum ChatErrorCode). */
export type ChatErrorCode = Schemas['Envelope.ChatErrorCode'];

/** One per-field problem of a validation error. */
export type ErrorDetail = Schemas['Envelope.ErrorDetail'];

/** What every error response becomes: the thrown ChatApiError (status, code, message, details, requestId). */
export type ChatError = ChatApiError;

type Operation<K extends OperationId> = operations[K];

/** Drops the keys whose type is only `never`/`undefined` (the `path?: never` of the generated schema). */
type DropAbsent<T> = { [Q in keyof T as [Exclude<T[Q], undefined>] extends [never] ? never : Q]: T[Q] };

/** `{ path: ... }` / `{ query?: ... }` as the operation declares them. */
type ParamsInput<K extends OperationId> = DropAbsent<Pick<Operation<K>['parameters'], 'path' | 'query'>>;

/** `{ body: ... }` when the operation takes a JSON body (openapi-fetch's own body option), else nothing. */
type BodyInput<K extends OperationId> =
  RequestBodyOption<Operation<K>> extends { body?: never } ? unknown : RequestBodyOption<Operation<K>>;

/** The first argument of an operation method: its path and query parameters and its body. */
export type OperationInput<K extends OperationId> = Simplify<ParamsInput<K> & BodyInput<K>>;

/** Per-call options that are not part of the API contract. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Extra request headers (an Authorization header here overrides the client's token). */
  headers?: HeadersOptions;
  /** Overrides the client's maxRetries for this call (0: a single attempt). */
  maxRetries?: number;
  /**
   * Sent as the Idempotency-Key header on every attempt (sendMessage honours it: a repeat answers the first
   * message). A write that carries one is repeated after a 5xx or a network error too.
   */
  idempotencyKey?: string;
}

/** The input is optional exactly when the operation has nothing required. */
// `{}` is the point here: the input is optional when an empty object satisfies it.
export type OperationArgs<K extends OperationId> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  {} extends OperationInput<K> ? [input?: OperationInput<K>, options?: CallOptions] : [input: OperationInput<K>, options?: CallOptions];

/** The parsed 2xx body of an operation, as openapi-fetch types it (undefined for a response without content). */
export type SuccessBody<K extends OperationId> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- openapi-fetch's own spelling of "no init options"
  FetchResponse<Operation<K>, {}, `${string}/${string}`> extends infer R ? (R extends { data: infer D } ? D : never) : never;

/** Enveloped bodies split into data and meta; a bare body (health checks) is the data with no meta. */
type Unwrap<B> = B extends { data: infer D; meta: infer M } ? { data: D; meta: M } : { data: B; meta: undefined };

/** A success: the envelope's data and meta (a bare body, the health checks', is the data with no meta) and the Response. */
export type ChatSuccess<K extends OperationId> = K extends OperationId ? Simplify<Unwrap<SuccessBody<K>> & { response: Response }> : never;

/** What every operation method resolves to; an error response throws ChatApiError, a transport failure its own error. */
export type ChatResult<K extends OperationId> = ChatSuccess<K>;

export type OperationData<K extends OperationId> = ChatSuccess<K>['data'];
export type OperationMeta<K extends OperationId> = ChatSuccess<K>['meta'];

/** One typed method per operation of the spec. */
export type ChatOperations = { [K in OperationId]: (...args: OperationArgs<K>) => Promise<ChatResult<K>> };
