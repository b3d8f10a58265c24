// createPartnerAdminClient: the workspace administration operations (/api/v1/workspaces, /api/v1/plans), called
// by a workspace user with the platform's bearer JWT. Same conventions as the key client, without Idempotency-Keys
// (the server keeps them for API-key writes only).
import type { Client } from 'openapi-fetch';
import { underlying, type CommonClientOptions } from './common.js';
import { adminOperationIds, adminOperationRoutes, type AdminOperationId } from './operations.js';
import { items, pages, type AdminPaginatedOperationId, type ItemOf, type ListEnvelope, type PageOf } from './pagination.js';
import type { paths } from './schema.js';
import { bearerAuth, send, tokenProvider, type LooseInput, type ResultWithResponse, type TokenOptions } from '@chat-platform/sdk-core';
import { toPartnerApiError } from './errors.js';
import type { CallOptions, OperationArgs, OperationData, PartnerAdminOperations } from './types.js';

export type PartnerAdminClientOptions = CommonClientOptions & TokenOptions;

export interface PartnerAdminClientExtras {
  /** The underlying openapi-fetch client (bearer auth already installed; no retries). */
  readonly raw: Client<paths>;
  /** Calls any administration operation by its operationId; resolves to the body or throws PartnerApiError. */
  call<K extends AdminOperationId>(operation: K, ...args: OperationArgs<K>): Promise<OperationData<K>>;
  /** Like call, with the Response and the number of attempts. */
  callWithResponse<K extends AdminOperationId>(operation: K, ...args: OperationArgs<K>): Promise<ResultWithResponse<OperationData<K>>>;
  /** The list envelopes of every page, from `input.query.cursor` (or the first page) until has_more is false. */
  pages<K extends AdminPaginatedOperationId>(operation: K, ...args: OperationArgs<K>): AsyncGenerator<PageOf<K>, void, undefined>;
  /** Every record of every page, in server order. A failed page throws PartnerApiError. */
  paginate<K extends AdminPaginatedOperationId>(operation: K, ...args: OperationArgs<K>): AsyncGenerator<ItemOf<K>, void, undefined>;
}

export type PartnerAdminClient = PartnerAdminOperations & PartnerAdminClientExtras;

type ExtrasClash = Extract<AdminOperationId, keyof PartnerAdminClientExtras>;
const noExtrasClash: [ExtrasClash] extends [never] ? true : ExtrasClash = true;
void noExtrasClash;

/** Methods whose repetition is harmless; POSTs (create workspace, role, key; revoke) are retried on 429 only. */
const idempotentMethods: ReadonlySet<string> = new Set(['get', 'head', 'options', 'put', 'delete']);

export function createPartnerAdminClient(options: PartnerAdminClientOptions): PartnerAdminClient {
  const { raw, request, policy } = underlying(options, bearerAuth(tokenProvider(options, 'createPartnerAdminClient')));

  async function callWithResponse(
    operation: AdminOperationId,
    input?: LooseInput,
    callOptions: CallOptions = {},
  ): Promise<ResultWithResponse<unknown>> {
    const route = adminOperationRoutes[operation];
    if (!route) throw new TypeError(`${String(operation)} is not an operation of the partner administration client`);
    return send(request, policy, toPartnerApiError, route, input, {
      signal: callOptions.signal,
      headers: callOptions.headers,
      maxRetries: callOptions.maxRetries,
      repeatable: idempotentMethods.has(route.method),
    });
  }
  const call = async (operation: AdminOperationId, input?: LooseInput, callOptions?: CallOptions) =>
    (await callWithResponse(operation, input, callOptions)).data;

  const loosePages = (operation: AdminPaginatedOperationId, input?: LooseInput, callOptions?: CallOptions) => {
    const start = input ?? {};
    return pages(
      operation,
      (cursor) => call(operation, { ...start, query: { ...start.query, cursor } }, callOptions) as Promise<ListEnvelope>,
      start.query?.cursor as string | undefined,
    );
  };

  const methods = Object.fromEntries(
    adminOperationIds.map((id) => [id, (input?: LooseInput, callOptions?: CallOptions) => call(id, input, callOptions)]),
  ) as unknown as PartnerAdminOperations;

  const extras: PartnerAdminClientExtras = {
    raw,
    call: call as PartnerAdminClientExtras['call'],
    callWithResponse: callWithResponse as PartnerAdminClientExtras['callWithResponse'],
    pages: loosePages as PartnerAdminClientExtras['pages'],
    paginate: ((operation: AdminPaginatedOperationId, input?: LooseInput, callOptions?: CallOptions) =>
      items(loosePages(operation, input, callOptions))) as PartnerAdminClientExtras['paginate'],
  };
  return Object.assign(methods, extras);
}
