// Issuing, listing and revoking API keys. issueApiKey is the one place a key is made: the createApiKey operation
// and the development CLI both call it, so both apply the same rules (known scopes, 1 to 20, future expiry).
import { systemClock, type Clock } from '../../platform/clock.js';
import { boundList, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Runner } from '../../platform/db/typed.js';
import { partnerErrors } from '../base/errors.js';
import { isKnownScope, scopePresets } from '../scopes/catalogue.js';
import { listOf, type ListEnvelope } from '../workspaces/views.js';
import { keyEnvironments, newSecret, type KeyEnvironment } from './secret.js';
import { apiKeyById, apiKeyPage, insertApiKey, revokeActiveKey } from './queries.js';
import { apiKeyView, type ApiKeyView } from './views.js';

export const maxScopes = 20;
export const maxNameLength = 100;

export interface IssueApiKeyInput {
  workspaceId: string;
  name: string;
  scopes: string[];
  environment?: KeyEnvironment;
  expiresAt?: Date | null;
  /** The account that issued it; null for keys of the development tool. */
  createdBy: string | null;
}

export interface IssuedApiKey {
  view: ApiKeyView;
  /** The full secret: shown this once, never stored. */
  key: string;
}

/** The scopes of a create request: exactly one of a scope list or a preset name. Duplicates are dropped. */
export function resolveScopes(input: { scopes?: string[]; preset?: string }): string[] {
  if (input.scopes !== undefined && input.preset !== undefined)
    throw partnerErrors.badInput('body.preset', 'cannot be given together with body.scopes; give one of them');
  if (input.preset !== undefined) {
    const preset = scopePresets[input.preset];
    if (!preset) throw partnerErrors.badInput('body.preset', `is not a preset of the catalogue: ${input.preset}`);
    return [...preset];
  }
  if (input.scopes === undefined) throw partnerErrors.badInput('body.scopes', 'or body.preset is required');
  return checkScopes(input.scopes);
}

function checkScopes(scopes: string[]): string[] {
  const unknown = scopes.find((s) => !isKnownScope(s));
  if (unknown !== undefined) throw partnerErrors.badInput('body.scopes', `contains a scope that is not in the catalogue: ${unknown}`);
  const unique = [...new Set(scopes)];
  if (unique.length < 1 || unique.length > maxScopes) throw partnerErrors.badInput('body.scopes', `must hold 1 to ${maxScopes} scopes`);
  return unique;
}

/** Makes a key and stores its hash; `db` may be a pool or a transaction. */
export async function issueApiKey(db: Runner, input: IssueApiKeyInput, clock: Clock = systemClock): Promise<IssuedApiKey> {
  const now = clock.now();
  const name = input.name.trim();
  if (name.length < 1 || input.name.length > maxNameLength)
    throw partnerErrors.badInput('body.name', `must be 1 to ${maxNameLength} characters, not all blank`);
  const scopes = checkScopes(input.scopes);
  const environment = input.environment ?? 'live';
  if (!keyEnvironments.includes(environment)) throw partnerErrors.badInput('body.environment', 'must be live, test or dev');
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw partnerErrors.badInput('body.expires_at', 'must be in the future');
  const secret = newSecret(environment);
  const row = await insertApiKey(db, {
    id: newId(),
    workspaceId: input.workspaceId,
    name: input.name,
    prefix: secret.prefix,
    hash: secret.hash,
    environment,
    scopes,
    createdBy: input.createdBy,
    at: now,
    expiresAt,
  });
  return { view: apiKeyView(row, now), key: secret.key };
}

function parseKeyCursor(list: string, raw: string): string {
  const id = cursorUuid(decodeCursor(raw, list)?.i);
  if (!id) throw partnerErrors.badInput('query.cursor', 'is not a cursor of this list');
  return id;
}

/** A workspace's keys, newest first (ids are time-ordered). */
export async function listApiKeys(
  db: Runner,
  workspaceId: string,
  query: { limit?: number; cursor?: string },
  now: Date,
): Promise<ListEnvelope<ApiKeyView>> {
  const limit = query.limit ?? 50;
  const list = boundList('api_keys', [workspaceId]);
  const after = query.cursor === undefined ? undefined : parseKeyCursor(list, query.cursor);
  const found = await apiKeyPage(db, workspaceId, after, limit + 1);
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return listOf(
    page.map((r) => apiKeyView(r, now)),
    found.length > limit,
    last ? encodeCursor({ i: last.id }, list) : null,
  );
}

const keyNotFound = () => partnerErrors.notFound('api_key_not_found', 'The API key');

export async function getApiKey(db: Runner, workspaceId: string, keyId: string, now: Date): Promise<ApiKeyView> {
  const row = await apiKeyById(db, workspaceId, keyId);
  if (!row) throw keyNotFound();
  return apiKeyView(row, now);
}

/**
 * Revokes an active key; the handler then empties every node's key cache, so it dies on the next request, on every node.
 * The row stays for audit. `revokedBy` is null when a key revokes itself.
 */
export async function revokeApiKey(
  db: Runner,
  workspaceId: string,
  keyId: string,
  revokedBy: string | null,
  now: Date,
): Promise<ApiKeyView> {
  const revoked = await revokeActiveKey(db, workspaceId, keyId, revokedBy, now);
  if (revoked) return apiKeyView(revoked, now);
  await getApiKey(db, workspaceId, keyId, now);
  throw partnerErrors.conflict('api_key_already_revoked', 'The API key is already revoked.', { key_id: keyId });
}

export function requireConfirmation(confirm: boolean): void {
  if (confirm !== true) throw partnerErrors.badInput('body.confirm', 'must be true to revoke a key');
}
