// Presence: ONLINE / AWAY / OFFLINE from the realtime sessions every node keeps in Redis, the AWAY setting and
// last-seen; a change of an account's status goes out as a `presence` notice to those who may see it.
import type { SqlPool } from '../../platform/db/sql.js';
import { isUuid } from '../../platform/ids.js';
import type { Redis } from '../../platform/redis.js';
import { presenceErrors } from './errors.js';
import { publishEphemeral } from './ephemeral.js';
import { presenceMaxIds } from './limits.js';
import { PresenceStore, type StoredPresence } from './store.js';
import { presenceAudience, visibleTo } from './visibility.js';

export type PresenceStatus = 'ONLINE' | 'AWAY' | 'OFFLINE';

export interface PresenceView {
  accountId: string;
  status: PresenceStatus;
  lastSeenAt?: string;
}

function viewOf(accountId: string, p: StoredPresence | undefined): PresenceView {
  if (!p) return { accountId, status: 'OFFLINE' };
  if (p.online) return { accountId, status: p.away ? 'AWAY' : 'ONLINE' };
  return p.lastSeen === null ? { accountId, status: 'OFFLINE' } : { accountId, status: 'OFFLINE', lastSeenAt: new Date(p.lastSeen).toISOString() };
}

export class PresenceService {
  private readonly store: PresenceStore;

  constructor(
    private readonly sql: SqlPool,
    private readonly redis: Redis,
  ) {
    this.store = new PresenceStore(redis);
  }

  /** A session opened or showed life (a heart-beat); the first live session of the account announces it. */
  async sessionAlive(accountId: string, sessionId: string, ttlMs: number): Promise<void> {
    if (await this.store.touch(accountId, sessionId, ttlMs)) await this.announce(accountId);
  }

  /** A session closed; the account's last one announces OFFLINE with last-seen. */
  async sessionClosed(accountId: string, sessionId: string): Promise<void> {
    if (await this.store.drop(accountId, sessionId)) await this.announce(accountId);
  }

  /** The caller's AWAY setting; a change while it has sessions is announced. */
  async set(accountId: string, status: 'ONLINE' | 'AWAY'): Promise<PresenceView> {
    const changed = await this.store.setAway(accountId, status === 'AWAY');
    const view = await this.current(accountId);
    if (changed && view.status !== 'OFFLINE') await this.publish(accountId, view);
    return view;
  }

  /** The accounts' presence as the viewer may see it, in the order asked, each id once. */
  async list(viewerId: string, raw: string): Promise<PresenceView[]> {
    const ids = [...new Set(raw.split(',').map((s) => s.trim().toLowerCase()))];
    if (ids.length > presenceMaxIds) throw presenceErrors.tooManyIds(ids.length);
    for (const id of ids) if (!isUuid(id)) throw presenceErrors.notAnId(id);
    const visible = [...(await visibleTo(this.sql, viewerId, ids))];
    const stored = await this.store.read(visible);
    return ids.map((id) => viewOf(id, stored.get(id)));
  }

  private async current(accountId: string): Promise<PresenceView> {
    return viewOf(accountId, (await this.store.read([accountId])).get(accountId));
  }

  private async announce(accountId: string): Promise<void> {
    await this.publish(accountId, await this.current(accountId));
  }

  private async publish(accountId: string, view: PresenceView): Promise<void> {
    const to = await presenceAudience(this.sql, accountId);
    await publishEphemeral(this.redis, { topic: 'presence', createdAt: new Date().toISOString(), payload: { ...view }, to });
  }
}
