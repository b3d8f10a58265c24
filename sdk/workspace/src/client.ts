// createWorkspaceClient: the key client of the workspace API (module families and the scope catalogue), with
// `Authorization: Bearer svc_…` on every request, one typed method per operation, retries and cursor pagination.
import type { Client } from 'openapi-fetch';
import { buildClient } from './build.js';
import { bearerAuth, underlying, type CommonClientOptions } from './common.js';
import { keyOperationRoutes, type KeyOperationId } from './operations.js';
import type { ItemOf, KeyPaginatedOperationId, PageOf } from './pagination.js';
import type { paths } from './schema.js';
import type { ResultWithResponse } from '@chat-platform/sdk-core';
import type { OperationArgs, OperationData, WorkspaceOperations } from './types.js';

export interface WorkspaceClientOptions extends CommonClientOptions {
  /** The key, svc_live_… or svc_test_…, sent as a bearer credential on every request. */
  apiKey: string;
}

export interface WorkspaceClientExtras {
  /** The underlying openapi-fetch client (the key already installed; no retries). */
  readonly raw: Client<paths>;
  /** Calls any key operation by its operationId; resolves to the body or throws WorkspaceApiError. */
  call<K extends KeyOperationId>(operation: K, ...args: OperationArgs<K>): Promise<OperationData<K>>;
  /** Like call, with the Response (rate-limit headers, X-Request-ID) and the number of attempts. */
  callWithResponse<K extends KeyOperationId>(operation: K, ...args: OperationArgs<K>): Promise<ResultWithResponse<OperationData<K>>>;
  /** Every page from `input.query.cursor` (or the first) until next_cursor is null. */
  pages<K extends KeyPaginatedOperationId>(operation: K, ...args: OperationArgs<K>): AsyncGenerator<PageOf<K>, void, undefined>;
  /** Every item of every page, in server order. A failed page throws WorkspaceApiError. */
  paginate<K extends KeyPaginatedOperationId>(operation: K, ...args: OperationArgs<K>): AsyncGenerator<ItemOf<K>, void, undefined>;
}

export type WorkspaceClient = WorkspaceOperations & WorkspaceClientExtras;

type ExtrasClash = Extract<KeyOperationId, keyof WorkspaceClientExtras>;
const noExtrasClash: [ExtrasClash] extends [never] ? true : ExtrasClash = true;
void noExtrasClash;

export function createWorkspaceClient(options: WorkspaceClientOptions): WorkspaceClient {
  if (typeof options.apiKey !== 'string' || options.apiKey === '')
    throw new TypeError('createWorkspaceClient needs an apiKey (svc_live_… or svc_test_…)');
  const apiKey = options.apiKey;
  return buildClient(
    'workspace key client',
    keyOperationRoutes,
    underlying(
      options,
      bearerAuth(() => apiKey),
    ),
  ) as unknown as WorkspaceClient;
}
