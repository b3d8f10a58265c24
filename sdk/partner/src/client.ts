// createPartnerClient: the API-key client of the partner data API (/api/v1/partner/crm), of key self-management
// (/api/v1/api-keys), of webhooks (/api/v1/webhooks, /api/v1/webhook-deliveries), of the knowledge base and AI
// (/api/v1/inbox/kb, /api/v1/inbox/ai) and of storage (/api/v1/storage; uploads take a Uint8Array, ArrayBuffer or
// Blob as the body, getStorageFileContent resolves to an ArrayBuffer). openapi-fetch underneath,
// X-Api-Key on every request, one typed method per operation, an Idempotency-Key per logical write, retries and
// cursor pagination.
import type { Client, Middleware } from 'openapi-fetch';
import { underlying, type CommonClientOptions } from './common.js';
import { byteResponseOperations, keyOperationIds, keyOperationRoutes, type KeyOperationId } from './operations.js';
import { items, pages, type ItemOf, type KeyPaginatedOperationId, type ListEnvelope, type PageOf } from './pagination.js';
import type { paths } from './schema.js';
import { send, type LooseInput, type ResultWithResponse } from '@chat-platform/sdk-core';
import { toPartnerApiError } from './errors.js';
import type {
  CallOptions,
  KeyCallOptions,
  OperationArgs,
  OperationData,
  OperationQuery,
  PartnerOperations,
  WriteCallOptions,
} from './types.js';

export interface PartnerClientOptions extends CommonClientOptions {
  /** The API key (live_…, test_… or dev_…), sent as X-Api-Key on every request. */
  apiKey: string;
  /** Makes the Idempotency-Key of a write that was not given one (default crypto.randomUUID). */
  idempotencyKey?: () => string;
}

export interface PartnerClientExtras {
  /** The underlying openapi-fetch client (X-Api-Key already installed; no retries, no idempotency keys). */
  readonly raw: Client<paths>;
  /** Calls any API-key operation by its operationId; resolves to the body or throws PartnerApiError. */
  call<K extends KeyOperationId>(operation: K, ...args: OperationArgs<K, KeyCallOptions<K>>): Promise<OperationData<K>>;
  /** Like call, with the Response, the number of attempts and the Idempotency-Key used. */
  callWithResponse<K extends KeyOperationId>(
    operation: K,
    ...args: OperationArgs<K, KeyCallOptions<K>>
  ): Promise<ResultWithResponse<OperationData<K>>>;
  /** The list envelopes of every page, from `query.cursor` (or the first page) until has_more is false. */
  pages<K extends KeyPaginatedOperationId>(
    operation: K,
    query?: OperationQuery<K>,
    options?: CallOptions,
  ): AsyncGenerator<PageOf<K>, void, undefined>;
  /** Every record of every page, in server order (newest first). A failed page throws PartnerApiError. */
  paginate<K extends KeyPaginatedOperationId>(
    operation: K,
    query?: OperationQuery<K>,
    options?: CallOptions,
  ): AsyncGenerator<ItemOf<K>, void, undefined>;
}

export type PartnerClient = PartnerOperations & PartnerClientExtras;

// An operation named like one of the extras would be shadowed; fail the typecheck instead.
type ExtrasClash = Extract<KeyOperationId, keyof PartnerClientExtras>;
const noExtrasClash: [ExtrasClash] extends [never] ? true : ExtrasClash = true;
void noExtrasClash;

/** openapi-fetch middleware setting X-Api-Key, unless the request already carries one (a per-call override). */
export function apiKeyAuth(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      if (request.headers.has('x-api-key')) return undefined;
      request.headers.set('x-api-key', apiKey);
      return request;
    },
  };
}

const writeMethods: ReadonlySet<string> = new Set(['post', 'patch', 'delete']);

export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  if (typeof options.apiKey !== 'string') throw new TypeError('createPartnerClient needs an apiKey');
  const newKey = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());
  const { raw, request, policy } = underlying(options, apiKeyAuth(options.apiKey));

  async function callWithResponse(
    operation: KeyOperationId,
    input?: LooseInput,
    callOptions: WriteCallOptions = {},
  ): Promise<ResultWithResponse<unknown>> {
    const route = keyOperationRoutes[operation];
    if (!route) throw new TypeError(`${String(operation)} is not an operation of the partner API-key client`);
    // One key per logical call, made before the first attempt, so every retry repeats it and the server answers a
    // repeat with the first result instead of creating a second record. Reads carry none and are idempotent anyway.
    const idempotencyKey = writeMethods.has(route.method) ? (callOptions.idempotencyKey ?? newKey()) : undefined;
    // Reads are safe and every write carries its key, so each call may be repeated after a 5xx.
    return send(request, policy, toPartnerApiError, route, input, {
      signal: callOptions.signal,
      headers: callOptions.headers,
      maxRetries: callOptions.maxRetries,
      idempotencyKey,
      parseAs: byteResponseOperations.has(operation) ? 'arrayBuffer' : undefined,
    });
  }
  const call = async (operation: KeyOperationId, input?: LooseInput, callOptions?: WriteCallOptions) =>
    (await callWithResponse(operation, input, callOptions)).data;

  const loosePages = (operation: KeyPaginatedOperationId, query?: Record<string, unknown>, callOptions?: CallOptions) => {
    const start = query ?? {};
    return pages(
      operation,
      (cursor) => call(operation, { query: { ...start, cursor } }, callOptions) as Promise<ListEnvelope>,
      start.cursor as string | undefined,
    );
  };

  const methods = Object.fromEntries(
    keyOperationIds.map((id) => [id, (input?: LooseInput, callOptions?: WriteCallOptions) => call(id, input, callOptions)]),
  ) as unknown as PartnerOperations;

  const extras: PartnerClientExtras = {
    raw,
    call: call as PartnerClientExtras['call'],
    callWithResponse: callWithResponse as PartnerClientExtras['callWithResponse'],
    pages: loosePages as PartnerClientExtras['pages'],
    paginate: ((operation: KeyPaginatedOperationId, query?: Record<string, unknown>, callOptions?: CallOptions) =>
      items(loosePages(operation, query, callOptions))) as PartnerClientExtras['paginate'],
  };
  return Object.assign(methods, extras);
}
