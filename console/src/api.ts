// The console reaches the platform only through the SDK packages: the partner administration client (workspaces,
// roles, convention A keys) and the workspace administration client (svc_ keys, audit log).
import { createPartnerAdminClient, PartnerApiError, type PartnerAdminClient } from '@chat-platform/partner-sdk';
import { createWorkspaceAdminClient, WorkspaceApiError, type WorkspaceAdminClient } from '@chat-platform/workspace-sdk';
import { session } from './session';

interface Endpoint {
  url?: string;
  port?: number;
}
interface ConsoleConfig {
  partner: Endpoint;
  workspace: Endpoint;
}

export interface Clients {
  partner: PartnerAdminClient;
  workspace: WorkspaceAdminClient;
  /** Where the workspace listener is, for the key client of the webhook pages. */
  workspaceBaseUrl: string;
}

function baseUrl(endpoint: Endpoint): string {
  if (endpoint.url) return endpoint.url.replace(/\/$/, '');
  return `${location.protocol}//${location.hostname}:${endpoint.port}`;
}

export async function loadClients(): Promise<Clients> {
  const res = await fetch('/console/config.json', { cache: 'no-store' });
  if (!res.ok) throw new Error(`The console configuration could not be read (HTTP ${res.status}).`);
  const config = (await res.json()) as ConsoleConfig;
  // One attempt per click: the user sees an error and decides whether to try again.
  const common = { getToken: session.token, maxRetries: 0 };
  return {
    partner: createPartnerAdminClient({ baseUrl: baseUrl(config.partner), ...common }),
    workspace: createWorkspaceAdminClient({ baseUrl: baseUrl(config.workspace), ...common }),
    workspaceBaseUrl: baseUrl(config.workspace),
  };
}

/** A sentence for the user, with the request id to quote when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof PartnerApiError || error instanceof WorkspaceApiError) {
    const id = error.requestId ? ` (request ${error.requestId})` : '';
    return `${error.message}${id}`;
  }
  if (error instanceof TypeError) return 'The server could not be reached. Check your connection and try again.';
  return error instanceof Error ? error.message : String(error);
}

export function isUnauthenticated(error: unknown): boolean {
  return (error instanceof PartnerApiError || error instanceof WorkspaceApiError) && error.status === 401;
}
