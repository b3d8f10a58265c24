// Request and result types of every operation, derived from the generated schema with openapi-fetch's own helper
// types. Nothing here restates a shape of the API: change the spec, regenerate, and these follow.
import type { FetchResponse, HeadersOptions, RequestBodyOption } from 'openapi-fetch';
import type { AdminOperationId, KeyOperationId, KeyWriteOperationId, OperationId } from './operations.js';
import type { components, operations } from './schema.js';

/** Flattens intersections so editors show one object type. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

export type Schemas = components['schemas'];

/** The body of every partner error response: { error: { code, message, details, retry_after? }, request_id }. */
export type ErrorEnvelope = Schemas['PartnerErrorEnvelope'];

/** Every code the partner error envelope can carry (the spec's enum PartnerErrorCode). */
export type PartnerErrorCode = Schemas['PartnerErrorCode'];

type Operation<K extends OperationId> = operations[K];

/** Drops the keys whose type is only `never`/`undefined` (the `path?: never` of the generated schema). */
type DropAbsent<T> = { [Q in keyof T as [Exclude<T[Q], undefined>] extends [never] ? never : Q]: T[Q] };

/**
 * `{ path: ... }` / `{ query?: ... }` as the operation declares them. Header parameters are left out: the only one
 * is Idempotency-Key, which the client generates (or takes from the call options).
 */
type ParamsInput<K extends OperationId> = DropAbsent<Pick<Operation<K>['parameters'], 'path' | 'query'>>;

/** `{ body: ... }` when the operation takes a JSON body (openapi-fetch's own body option), else nothing. */
type BodyInput<K extends OperationId> =
  RequestBodyOption<Operation<K>> extends { body?: never } ? unknown : RequestBodyOption<Operation<K>>;

/** The first argument of an operation method: its path and query parameters and its body. */
export type OperationInput<K extends OperationId> = Simplify<ParamsInput<K> & BodyInput<K>>;

/** The query parameters of an operation (an empty object type when it has none). */
export type OperationQuery<K extends OperationId> = Simplify<NonNullable<Operation<K>['parameters']['query']>>;

/** Per-call options that are not part of the API contract. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Extra request headers for this call. */
  headers?: HeadersOptions;
  /** Overrides the client's maxRetries for this call (0: a single attempt). */
  maxRetries?: number;
}

/** Options of a write made with an API key (POST, PATCH, DELETE). */
export interface WriteCallOptions extends CallOptions {
  /**
   * The Idempotency-Key of this logical call (letters, digits, _ and -, at most 64). Absent: the client makes one
   * (crypto.randomUUID by default). Either way the same key is sent on every retry of the call.
   */
  idempotencyKey?: string;
}

/** The options an API-key operation takes: writes also take an idempotencyKey. */
export type KeyCallOptions<K extends KeyOperationId> = K extends KeyWriteOperationId ? WriteCallOptions : CallOptions;

/** The input is optional exactly when the operation has nothing required. */
// `{}` is the point here: the input is optional when an empty object satisfies it.
export type OperationArgs<K extends OperationId, O = CallOptions> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  {} extends OperationInput<K> ? [input?: OperationInput<K>, options?: O] : [input: OperationInput<K>, options?: O];

/** The parsed 2xx body of an operation, as openapi-fetch types it (undefined for a response without content). */
export type SuccessBody<K extends OperationId> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- openapi-fetch's own spelling of "no init options"
  FetchResponse<Operation<K>, {}, `${string}/${string}`> extends infer R ? (R extends { data: infer D } ? D : never) : never;

/** What an operation method resolves to: the response body (the record, or the list envelope). */
export type OperationData<K extends OperationId> = SuccessBody<K>;

/** One typed method per API-key operation; each resolves to the body or throws PartnerApiError. */
export type PartnerOperations = {
  [K in KeyOperationId]: (...args: OperationArgs<K, KeyCallOptions<K>>) => Promise<OperationData<K>>;
};

/** One typed method per administration operation; each resolves to the body or throws PartnerApiError. */
export type PartnerAdminOperations = {
  [K in AdminOperationId]: (...args: OperationArgs<K>) => Promise<OperationData<K>>;
};
