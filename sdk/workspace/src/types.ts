// Request and result types of every operation, derived from the generated schema with openapi-fetch's own helper
// types. Nothing here restates a shape of the API: change the spec, regenerate, and these follow.
import type { FetchResponse, HeadersOptions, RequestBodyOption } from 'openapi-fetch';
import type { AdminOperationId, KeyOperationId, OperationId } from './operations.js';
import type { components, operations } from './schema.js';

export type Simplify<T> = { [K in keyof T]: T[K] } & {};

export type Schemas = components['schemas'];

/** The body of every error response: { error, message } and retry_after on 429. */
export type ErrorBody = Schemas['ErrorBody'];

/** Every code the workspace error body can carry (the spec's enum WorkspaceErrorCode). */
export type WorkspaceErrorCode = Schemas['WorkspaceErrorCode'];

type Operation<K extends OperationId> = operations[K];

type DropAbsent<T> = { [Q in keyof T as [Exclude<T[Q], undefined>] extends [never] ? never : Q]: T[Q] };

type ParamsInput<K extends OperationId> = DropAbsent<Pick<Operation<K>['parameters'], 'path' | 'query'>>;

type BodyInput<K extends OperationId> =
  RequestBodyOption<Operation<K>> extends { body?: never } ? unknown : RequestBodyOption<Operation<K>>;

/** The first argument of an operation method: its path and query parameters and its body. */
export type OperationInput<K extends OperationId> = Simplify<ParamsInput<K> & BodyInput<K>>;

/** The query parameters of an operation (an empty object type when it has none). */
export type OperationQuery<K extends OperationId> = Simplify<NonNullable<Operation<K>['parameters']['query']>>;

/** Per-call options that are not part of the API contract. */
export interface CallOptions {
  signal?: AbortSignal;
  headers?: HeadersOptions;
  /** Overrides the client's maxRetries for this call (0: a single attempt). */
  maxRetries?: number;
}

/** The input is optional exactly when the operation has nothing required. */
// `{}` is the point here: the input is optional when an empty object satisfies it.
export type OperationArgs<K extends OperationId> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  {} extends OperationInput<K> ? [input?: OperationInput<K>, options?: CallOptions] : [input: OperationInput<K>, options?: CallOptions];

/** The parsed 2xx body of an operation, as openapi-fetch types it. */
export type SuccessBody<K extends OperationId> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- openapi-fetch's own spelling of "no init options"
  FetchResponse<Operation<K>, {}, `${string}/${string}`> extends infer R ? (R extends { data: infer D } ? D : never) : never;

export type OperationData<K extends OperationId> = SuccessBody<K>;

/** One typed method per key operation; each resolves to the body or throws WorkspaceApiError. */
export type WorkspaceOperations = {
  [K in KeyOperationId]: (...args: OperationArgs<K>) => Promise<OperationData<K>>;
};

/** One typed method per administration operation. */
export type WorkspaceAdminOperations = {
  [K in AdminOperationId]: (...args: OperationArgs<K>) => Promise<OperationData<K>>;
};
