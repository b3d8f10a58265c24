// Issuing, listing, reading and revoking svc_ keys. issueSvcKey is the one place a key is made: the createSvcKey
// operation and the dev-svc-key CLI both call it, so both apply the same rules.
import { systemClock, type Clock } from '../../platform/clock.js';
import { boundList, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid, newId } from '../../platform/ids.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { workspaceErrors } from '../base/errors.js';
import { normaliseEntry } from '../base/ip-allow.js';
import { isKnownScope } from '../scopes/catalogue.js';
import { keyEnvironments, newSecret, type KeyEnvironment } from '../base/key-secret.js';
import type { Page } from '../base/paging.js';
import { insertSvcKey, revokeUnrevokedKey, svcKeyById, svcKeyPage } from './queries.js';
import { svcKeyView, type KeyStatus, type SvcKeyView } from './views.js';

export const maxNameLength = 100;
export const maxDescriptionLength = 500;
export const maxAllowListEntries = 50;

export interface IssueSvcKeyInput {
  workspaceId: string;
  name: string;
  description?: string | null;
  scopes: string[];
  ipAllowList?: string[];
  environment?: KeyEnvironment;
  expiresAt?: Date | null;
  /** The account that issued it; null for keys of the development tool. */
  createdBy: string | null;
}

export interface IssuedSvcKey {
  view: SvcKeyView;
  /** The full secret: shown this once, never stored. */
  key: string;
}

/** Known scopes, repeats dropped, in the given order. */
export function checkScopes(scopes: string[]): string[] {
  const unknown = scopes.find((s) => !isKnownScope(s));
  if (unknown !== undefined) throw workspaceErrors.invalid('body.scopes', `contains a scope that is not in the catalogue: ${unknown}`);
  const unique = [...new Set(scopes)];
  if (unique.length < 1) throw workspaceErrors.invalid('body.scopes', 'must hold at least one scope');
  return unique;
}

/** Normalised allow-list entries, repeats dropped; a bad entry is 400 naming it. */
export function checkAllowList(entries: string[]): string[] {
  if (entries.length > maxAllowListEntries)
    throw workspaceErrors.invalid('body.ip_allow_list', `holds at most ${maxAllowListEntries} entries`);
  const normalised: string[] = [];
  for (const entry of entries) {
    const value = normaliseEntry(entry);
    if (value === null)
      throw workspaceErrors.invalid(
        'body.ip_allow_list',
        `contains ${JSON.stringify(entry.slice(0, 64))}, which is neither an IPv4 or IPv6 address nor a CIDR range`,
      );
    if (!normalised.includes(value)) normalised.push(value);
  }
  return normalised;
}

/** Makes a key and stores its hash; `db` may be a pool or a transaction. */
export async function issueSvcKey(db: Queryable, input: IssueSvcKeyInput, clock: Clock = systemClock): Promise<IssuedSvcKey> {
  const now = clock.now();
  if (input.name.trim().length < 1 || input.name.length > maxNameLength)
    throw workspaceErrors.invalid('body.name', `must be 1 to ${maxNameLength} characters, not all blank`);
  const description = input.description ?? null;
  if (description !== null && description.length > maxDescriptionLength)
    throw workspaceErrors.invalid('body.description', `must be at most ${maxDescriptionLength} characters`);
  const scopes = checkScopes(input.scopes);
  const ipAllowList = checkAllowList(input.ipAllowList ?? []);
  const environment = input.environment ?? 'live';
  if (!keyEnvironments.includes(environment)) throw workspaceErrors.invalid('body.environment', 'must be live or test');
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw workspaceErrors.invalid('body.expires_at', 'must be in the future');
  const secret = newSecret(environment);
  const issued = await insertSvcKey(db, {
    id: newId(),
    workspaceId: input.workspaceId,
    name: input.name,
    description,
    prefix: secret.prefix,
    lastFour: secret.lastFour,
    hash: secret.hash,
    environment,
    scopes,
    ipAllowList,
    expiresAt,
    createdBy: input.createdBy,
    at: now,
  });
  return { view: svcKeyView(issued, now), key: secret.key };
}

function parseKeyCursor(list: string, raw: string): string {
  const c = decodeCursor(raw, list);
  if (!c || typeof c.i !== 'string' || !isUuid(c.i))
    throw workspaceErrors.invalid('query.cursor', 'is not a cursor of this list; pass next_cursor back unchanged');
  return c.i;
}

/** A workspace's keys, newest first (ids are time-ordered). */
export async function listSvcKeys(
  db: Queryable,
  workspaceId: string,
  query: { limit?: number; cursor?: string; status?: KeyStatus },
  now: Date,
): Promise<Page<SvcKeyView>> {
  const limit = query.limit ?? 50;
  const list = boundList('svc_keys', [workspaceId], query);
  const before = query.cursor === undefined ? undefined : parseKeyCursor(list, query.cursor);
  const found = await svcKeyPage(db, workspaceId, { status: query.status, now }, before, limit + 1);
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => svcKeyView(r, now)),
    next_cursor: found.length > limit && last ? encodeCursor({ i: last.id }, list) : null,
  };
}

const keyNotFound = () => workspaceErrors.notFound('The key');

export async function getSvcKey(db: Queryable, workspaceId: string, keyId: string, now: Date): Promise<SvcKeyView> {
  const row = await svcKeyById(db, workspaceId, keyId);
  if (!row) throw keyNotFound();
  return svcKeyView(row, now);
}

/**
 * Revokes a key for good; the handler then empties every node's key cache, so every node refuses it from the next
 * request. The row stays. Revoking a revoked key changes nothing and answers it as it is; an expired key can be
 * revoked too (it then reads Revoked).
 */
export async function revokeSvcKey(
  db: Queryable,
  workspaceId: string,
  keyId: string,
  revokedBy: string | null,
  now: Date,
): Promise<SvcKeyView> {
  const revoked = await revokeUnrevokedKey(db, workspaceId, keyId, revokedBy, now);
  if (revoked) return svcKeyView(revoked, now);
  return getSvcKey(db, workspaceId, keyId, now);
}
