// createWorkspaceAdminClient: key administration and the audit log (/api/v1/workspaces/{id}/svc-keys and
// /svc-audit-log), called by the workspace's Owner or Admin with the platform's bearer JWT.
import type { Client } from 'openapi-fetch';
import { buildClient } from './build.js';
import { bearerAuth, underlying, type CommonClientOptions, type TokenProvider } from './common.js';
import { adminOperationRoutes, type AdminOperationId } from './operations.js';
import type { AdminPaginatedOperationId, ItemOf, PageOf } from './pagination.js';
import type { paths } from './schema.js';
import type { ResultWithResponse } from '@chat-platform/sdk-core';
import type { OperationArgs, OperationData, WorkspaceAdminOperations } from './types.js';

export type WorkspaceAdminClientOptions = CommonClientOptions &
  ({ token: string; getToken?: undefined } | { getToken: TokenProvider; token?: undefined });

export interface WorkspaceAdminClientExtras {
  readonly raw: Client<paths>;
  call<K extends AdminOperationId>(operation: K, ...args: OperationArgs<K>): Promise<OperationData<K>>;
  callWithResponse<K extends AdminOperationId>(operation: K, ...args: OperationArgs<K>): Promise<ResultWithResponse<OperationData<K>>>;
  pages<K extends AdminPaginatedOperationId>(operation: K, ...args: OperationArgs<K>): AsyncGenerator<PageOf<K>, void, undefined>;
  paginate<K extends AdminPaginatedOperationId>(operation: K, ...args: OperationArgs<K>): AsyncGenerator<ItemOf<K>, void, undefined>;
}

export type WorkspaceAdminClient = WorkspaceAdminOperations & WorkspaceAdminClientExtras;

type ExtrasClash = Extract<AdminOperationId, keyof WorkspaceAdminClientExtras>;
const noExtrasClash: [ExtrasClash] extends [never] ? true : ExtrasClash = true;
void noExtrasClash;

export function createWorkspaceAdminClient(options: WorkspaceAdminClientOptions): WorkspaceAdminClient {
  let getToken: TokenProvider;
  if (typeof options.getToken === 'function') getToken = options.getToken;
  else if (typeof options.token === 'string') {
    const token = options.token;
    getToken = () => token;
  } else throw new TypeError('createWorkspaceAdminClient needs a token or a getToken function');
  return buildClient('workspace administration client', adminOperationRoutes, underlying(options, bearerAuth(getToken))) as unknown as WorkspaceAdminClient;
}
