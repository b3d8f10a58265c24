// createWorkspaceAdminClient: key administration and the audit log (/api/v1/workspaces/{id}/svc-keys and
// /svc-audit-log), called by the workspace's Owner or Admin with the platform's bearer JWT.
import type { Client } from 'openapi-fetch';
import { buildClient } from './build.js';
import { tokenProvider, type ResultWithResponse, type TokenOptions } from '@chat-platform/sdk-core';
import { bearerAuth, underlying, type CommonClientOptions } from './common.js';
import { adminOperationRoutes, type AdminOperationId } from './operations.js';
import type { AdminPaginatedOperationId, ItemOf, PageOf } from './pagination.js';
import type { paths } from './schema.js';
import type { OperationArgs, OperationData, WorkspaceAdminOperations } from './types.js';

export type WorkspaceAdminClientOptions = CommonClientOptions & TokenOptions;

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
  const getToken = tokenProvider(options, 'createWorkspaceAdminClient');
  return buildClient(
    'workspace administration client',
    adminOperationRoutes,
    underlying(options, bearerAuth(getToken)),
  ) as unknown as WorkspaceAdminClient;
}
