// Presence: ONLINE / AWAY / OFFLINE from the realtime sessions every node keeps in Redis, the AWAY setting and
// last-seen; a change of an account's status goes out as a `presence` notice to those who may see it.
import type { SqlPool } from '../../platform/db/sql.js';
import { isUuid } from '../../platform/ids.js';
import type { Redis } from '../../platform/redis.js';
import { presenceErrors } from './errors.js';
import { publishEphemeral } from './ephemeral.js';
import { presenceMaxIds } from './limits.js';
import { PresenceStore, type StoredPresence } from './store.js';
import { presenceAudiences, visibleTo } from './visibility.js';

export type PresenceStatus = 'ONLINE' | 'AWAY' | 'OFFLINE';

export interface PresenceView {
  accountId: string;
  status: PresenceStatus;
  lastSeenAt?: string;
}

function viewOf(accountId: string, p: StoredPresence | undefined): PresenceView {
  if (!p) return { accountId, status: 'OFFLINE' };
  if (p.online) return { accountId, status: p.away ? 'AWAY' : 'ONLINE' };
  return p.lastSeen === null
    ? { accountId, status: 'OFFLINE' }
    : { accountId, status: 'OFFLINE', lastSeenAt: new Date(p.lastSeen).toISOString() };
}

/**
 * Announcements wait this long and go out together: a burst of connects (a node restarting, every client
 * reconnecting) costs one audience statement per batch rather than one per account.
 */
const announceDelayMs = 100;
const announceBatch = 500;

export class PresenceService {
  private readonly store: PresenceStore;
  /** Accounts whose presence changed and is not announced yet; each is announced once, as it is at the time. */
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly sql: SqlPool,
    private readonly redis: Redis,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.store = new PresenceStore(redis);
  }

  /** A session opened or showed life (a heart-beat); the first live session of the account announces it. */
  async sessionAlive(accountId: string, sessionId: string, ttlMs: number): Promise<void> {
    if (await this.store.touch(accountId, sessionId, ttlMs)) this.announce(accountId);
  }

  /** A session closed; the account's last one announces OFFLINE with last-seen. */
  async sessionClosed(accountId: string, sessionId: string): Promise<void> {
    if (await this.store.drop(accountId, sessionId)) this.announce(accountId);
  }

  /** The caller's AWAY setting; a change while it has sessions is announced. */
  async set(accountId: string, status: 'ONLINE' | 'AWAY'): Promise<PresenceView> {
    const changed = await this.store.setAway(accountId, status === 'AWAY');
    const view = await this.current(accountId);
    if (changed && view.status !== 'OFFLINE') this.announce(accountId);
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

  /** Stops announcing (the node is stopping): what is pending is dropped, as a notice to no session would be. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.pending.clear();
  }

  private announce(accountId: string): void {
    if (this.closed) return;
    this.pending.add(accountId);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.flush()
        .catch(this.onError)
        .finally(() => {
          this.timer = undefined;
          this.schedule();
        });
    }, announceDelayMs);
    this.timer.unref();
  }

  /** One batch: the accounts' presence as it is now, their audiences in one statement, one publish each. */
  private async flush(): Promise<void> {
    const ids = [...this.pending].slice(0, announceBatch);
    for (const id of ids) this.pending.delete(id);
    const [stored, audiences] = await Promise.all([this.store.read(ids), presenceAudiences(this.sql, ids)]);
    const createdAt = new Date().toISOString();
    await Promise.all(
      ids.map((id) =>
        publishEphemeral(this.redis, {
          topic: 'presence',
          createdAt,
          payload: { ...viewOf(id, stored.get(id)) },
          to: audiences.get(id) ?? [id],
        }),
      ),
    );
  }
}
