// Inputs and results of every method, derived from the generated schema: change the spec, regenerate, and these
// follow.
import type { OperationId } from './operations.js';
import type { components, operations } from './schema.js';

export type Schemas = components['schemas'];
export type Update = Schemas['Update'];
export type Message = Schemas['Message'];
export type BotInfo = Schemas['BotInfo'];
export type WebhookInfo = Schemas['WebhookInfo'];
export type InlineKeyboardMarkup = Schemas['InlineKeyboardMarkup'];
export type ErrorBody = Schemas['BotErrorBody'];

type Operation<K extends OperationId> = operations[K];
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body of a POST method, or the query of a GET method; void when it takes neither. */
export type InputOf<K extends OperationId> = [JsonOf<NonNullable<Operation<K>['requestBody']>>] extends [never]
  ? [NonNullable<Operation<K>['parameters']['query']>] extends [never]
    ? void
    : NonNullable<Operation<K>['parameters']['query']>
  : JsonOf<NonNullable<Operation<K>['requestBody']>>;

/** The `result` of a method's successful answer. */
export type ResultOf<K extends OperationId> = JsonOf<Operation<K>['responses'][200]>['result'];

export type ResponseParameters = Schemas['ResponseParameters'];

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's maxRetries for this call (0: a single attempt). */
  maxRetries?: number;
}

/** One typed method per operation: input first (the body, or the query of GET getUpdates); resolves to the result or throws BotApiError. */
export type BotOperations = {
  [K in OperationId]: InputOf<K> extends void
    ? (input?: undefined, options?: CallOptions) => Promise<ResultOf<K>>
    : (input: InputOf<K>, options?: CallOptions) => Promise<ResultOf<K>>;
};
