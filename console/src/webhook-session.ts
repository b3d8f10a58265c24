// Webhooks are managed with a svc_ key holding webhook.* (the workspace API has no user surface for them: its
// decision is that the Owner/Admin rule holds where keys are made). The console therefore asks the signed-in Owner or
// Admin to start a webhook session: it creates a key "Settings console: webhooks" with webhook.* in the chosen
// environment, expiring after 8 hours, keeps it in this tab only (sessionStorage) and revokes it on sign-out or when
// the session is ended. The key shows in the service key list and the audit log like any other.
import { createWorkspaceClient, type WorkspaceClient } from '@chat-platform/workspace-sdk';
import type { Clients } from './api';

export interface WebhookSession {
  keyId: string;
  key: string;
  environment: 'live' | 'test';
  expiresAt: string;
}

const storageKey = (workspaceId: string) => `console.webhooks.${workspaceId}`;
const lifetimeMs = 8 * 3600_000;

export function currentSession(workspaceId: string): WebhookSession | null {
  const raw = sessionStorage.getItem(storageKey(workspaceId));
  if (!raw) return null;
  const session = JSON.parse(raw) as WebhookSession;
  return Date.parse(session.expiresAt) > Date.now() + 60_000 ? session : null;
}

export async function startSession(clients: Clients, workspaceId: string, environment: 'live' | 'test'): Promise<WebhookSession> {
  const expiresAt = new Date(Date.now() + lifetimeMs).toISOString();
  const created = await clients.workspace.createSvcKey({
    path: { workspace_id: workspaceId },
    body: {
      name: 'Settings console: webhooks',
      description: 'Created by the settings console for managing webhooks in one browser tab; revoked at sign-out.',
      scopes: ['webhook.*'],
      environment,
      expires_at: expiresAt,
    },
  });
  const session: WebhookSession = { keyId: created.id, key: created.key, environment, expiresAt };
  sessionStorage.setItem(storageKey(workspaceId), JSON.stringify(session));
  return session;
}

/** Revokes the session's key (best effort: it expires anyway) and forgets it. */
export async function endSession(clients: Clients, workspaceId: string): Promise<void> {
  const session = currentSession(workspaceId);
  sessionStorage.removeItem(storageKey(workspaceId));
  if (session) await clients.workspace.revokeSvcKey({ path: { workspace_id: workspaceId, key_id: session.keyId } }).catch(() => undefined);
}

/** Ends every webhook session of this tab (sign-out). */
export async function endAllSessions(clients: Clients): Promise<void> {
  const ids = Object.keys(sessionStorage).filter((k) => k.startsWith('console.webhooks.')).map((k) => k.slice('console.webhooks.'.length));
  await Promise.all(ids.map((id) => endSession(clients, id)));
}

export function webhookClient(clients: Clients, session: WebhookSession): WorkspaceClient {
  return createWorkspaceClient({ baseUrl: clients.workspaceBaseUrl, apiKey: session.key, maxRetries: 0 });
}

/** Forgets this tab's webhook sessions without revoking them (another user's token took over the tab). */
export function forgetAllSessions(): void {
  for (const k of Object.keys(sessionStorage)) if (k.startsWith('console.webhooks.')) sessionStorage.removeItem(k);
}
