// Issuing, listing, reading and revoking svc_ keys. issueSvcKey is the one place a key is made: the createSvcKey
// operation and the dev-svc-key CLI both call it, so both apply the same rules.
import { systemClock, type Clock } from '../../platform/clock.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid, newId } from '../../platform/ids.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { workspaceErrors } from '../errors.js';
import { normaliseEntry } from '../gate/ip-allow.js';
import { isKnownScope } from '../scopes/catalogue.js';
import { keyEnvironments, newSecret, type KeyEnvironment } from './secret.js';
import { svcKeyColumns, svcKeyView, type KeyStatus, type SvcKeyRow, type SvcKeyView } from './views.js';

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

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
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
  const { rows } = await db.query<SvcKeyRow>(
    `insert into svc_keys (id, workspace_id, name, description, prefix, last_four, key_hash, environment, scopes, ip_allow_list, expires_at, created_by, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     returning ${svcKeyColumns}`,
    [
      newId(),
      input.workspaceId,
      input.name,
      description,
      secret.prefix,
      secret.lastFour,
      secret.hash,
      environment,
      scopes,
      ipAllowList,
      expiresAt,
      input.createdBy,
      now,
    ],
  );
  return { view: svcKeyView(rows[0]!, now), key: secret.key };
}

function parseKeyCursor(raw: string): string {
  const c = decodeCursor(raw);
  if (!c || c.k !== 'svc_keys' || typeof c.i !== 'string' || !isUuid(c.i))
    throw workspaceErrors.invalid('query.cursor', 'is not a cursor of this list; pass next_cursor back unchanged');
  return c.i;
}

/** The SQL condition of a status; Active and Expired depend on `now`, given as parameter `$n`. */
const statusConditions: Record<KeyStatus, ((n: number) => string) | string> = {
  Active: (n) => `revoked_at is null and (expires_at is null or expires_at > $${n})`,
  Revoked: 'revoked_at is not null',
  Expired: (n) => `revoked_at is null and expires_at <= $${n}`,
};

/** A workspace's keys, newest first (ids are time-ordered). */
export async function listSvcKeys(
  db: Queryable,
  workspaceId: string,
  query: { limit?: number; cursor?: string; status?: KeyStatus },
  now: Date,
): Promise<Page<SvcKeyView>> {
  const limit = query.limit ?? 50;
  const params: unknown[] = [workspaceId];
  let sql = `select ${svcKeyColumns} from svc_keys where workspace_id = $1`;
  const condition = query.status === undefined ? undefined : statusConditions[query.status];
  if (typeof condition === 'string') sql += ` and ${condition}`;
  else if (condition) {
    params.push(now);
    sql += ` and ${condition(params.length)}`;
  }
  if (query.cursor !== undefined) {
    params.push(parseKeyCursor(query.cursor));
    sql += ` and id < $${params.length}`;
  }
  params.push(limit + 1);
  sql += ` order by id desc limit $${params.length}`;
  const { rows } = await db.query<SvcKeyRow>(sql, params);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => svcKeyView(r, now)),
    next_cursor: rows.length > limit && last ? encodeCursor({ k: 'svc_keys', i: last.id }) : null,
  };
}

const keyNotFound = () => workspaceErrors.notFound('The key');

export async function getSvcKey(db: Queryable, workspaceId: string, keyId: string, now: Date): Promise<SvcKeyView> {
  const { rows } = await db.query<SvcKeyRow>(`select ${svcKeyColumns} from svc_keys where id = $1 and workspace_id = $2`, [
    keyId,
    workspaceId,
  ]);
  if (!rows[0]) throw keyNotFound();
  return svcKeyView(rows[0], now);
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
  const { rows } = await db.query<SvcKeyRow>(
    `update svc_keys set revoked_at = $3, revoked_by = $4
      where id = $1 and workspace_id = $2 and revoked_at is null
      returning ${svcKeyColumns}`,
    [keyId, workspaceId, now, revokedBy],
  );
  if (rows[0]) return svcKeyView(rows[0], now);
  return getSvcKey(db, workspaceId, keyId, now);
}
