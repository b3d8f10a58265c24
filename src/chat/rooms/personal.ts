// The caller's own settings in a room (archive, mute, notification level, pin) and its read mark. Each change is
// addressed to the caller only; a call that changes nothing answers the current state and emits nothing.
import { inTransaction } from '../../platform/db/sql.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { memberSelect, memberView, type MemberRow, type MemberView } from '../members/views.js';
import { accountsAudience, chatTopicSql, emit, outboxInsertSql } from '../events/emit.js';
import { roomNotFound } from './membership.js';
import type { RoomService } from './service.js';
import { unreadMentionsOf } from '../mentions/sql.js';
import { muteState, preferenceColumns, unreadCountOf, type NotificationLevel, type PreferenceColumns, type RoomView } from './views.js';

/** A mute: until an instant, permanently, or none. */
type Mute = { until: Date } | 'forever' | 'none';

interface PreferenceChange {
  archived?: boolean;
  pinned?: boolean;
  notificationLevel?: NotificationLevel;
  mute?: Mute;
}

export interface PreferencesInput {
  notificationLevel?: NotificationLevel;
  muted?: boolean;
  mutedUntil?: string;
  pinned?: boolean;
  archived?: boolean;
}

export interface ReadState {
  roomId: string;
  lastReadSeq: number;
  unreadCount: number;
  mentionCount: number;
}

const latestInstant = Date.UTC(9999, 0, 1);

const storedMute = (row: PreferenceColumns): string | null =>
  row.muted_forever ? 'infinity' : row.muted_until ? row.muted_until.toISOString() : null;
const muteValue = (mute: Mute): string | null => (mute === 'forever' ? 'infinity' : mute === 'none' ? null : mute.until.toISOString());

export class PersonalRoomService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly rooms: RoomService,
  ) {}

  async archive(caller: Caller, roomId: string, archived: boolean): Promise<RoomView> {
    await this.apply(caller, roomId, { archived });
    return this.rooms.get(caller, roomId);
  }

  /** until null or absent: permanent. */
  async mute(caller: Caller, roomId: string, until: string | null | undefined): Promise<MemberView> {
    const mute: Mute = until === null || until === undefined ? 'forever' : { until: this.future(until, 'body.until') };
    await this.apply(caller, roomId, { mute });
    return this.me(caller, roomId);
  }

  async unmute(caller: Caller, roomId: string): Promise<MemberView> {
    await this.apply(caller, roomId, { mute: 'none' });
    return this.me(caller, roomId);
  }

  async preferences(caller: Caller, roomId: string, input: PreferencesInput): Promise<MemberView> {
    const change: PreferenceChange = { archived: input.archived, pinned: input.pinned, notificationLevel: input.notificationLevel };
    if (input.muted === false && input.mutedUntil !== undefined)
      throw chatErrors.invalid('body.mutedUntil', 'cannot be combined with muted=false');
    if (input.mutedUntil !== undefined) change.mute = { until: this.future(input.mutedUntil, 'body.mutedUntil') };
    else if (input.muted !== undefined) change.mute = input.muted ? 'forever' : 'none';
    await this.apply(caller, roomId, change);
    return this.me(caller, roomId);
  }

  /**
   * Moves the read mark up to the message (or the room's newest message); a mark never moves backwards, also
   * when marks race (the update's condition is re-checked on the locked row).
   */
  async markRead(caller: Caller, roomId: string, messageId: string | undefined): Promise<ReadState> {
    const { rows } = await this.deps.sql.query<{ target: number | null; moved: number | null }>(
      `with target as (
         select case when $3::uuid is null then r.last_seq
                     else (select x.seq from messages x where x.room_id = r.id and x.id = $3::uuid) end as seq
           from rooms r join room_members m on m.room_id = r.id and m.account_id = $2
          where r.id = $1 and r.deleted_at is null
       ), moved as (
         update room_members m set last_read_seq = t.seq from target t
          where m.room_id = $1 and m.account_id = $2 and t.seq is not null and m.last_read_seq < t.seq
         returning m.last_read_seq
       ), event as (
         ${outboxInsertSql}
         select ${chatTopicSql('room.read')}, jsonb_build_object('roomId', $1::uuid, 'accountId', $2::uuid, 'lastReadSeq', last_read_seq, 'audience', $4::jsonb)
           from moved
       )
       select t.seq as target, (select last_read_seq from moved) as moved from target t`,
      [roomId, caller.accountId, messageId ?? null, JSON.stringify(accountsAudience([caller.accountId]))],
    );
    const row = rows[0];
    if (!row) throw roomNotFound();
    if (row.target === null) throw chatErrors.notFound('Message', 'message_not_found');
    if (row.moved !== null) this.deps.queues.requestOutboxDrain();
    const state = await this.deps.sql.query<{ last_read_seq: number; unread_count: number; mention_count: number }>(
      `select m.last_read_seq, ${unreadCountOf('m.room_id', 'm.last_read_seq')} as unread_count,
              ${unreadMentionsOf('m.room_id', 'm.last_read_seq')} as mention_count
         from room_members m where m.room_id = $2 and m.account_id = $1`,
      [caller.accountId, roomId],
    );
    const now = state.rows[0];
    if (!now) throw roomNotFound();
    return { roomId, lastReadSeq: now.last_read_seq, unreadCount: now.unread_count, mentionCount: now.mention_count };
  }

  private future(instant: string, location: string): Date {
    const at = new Date(instant);
    if (!(at.getTime() > this.deps.clock.now().getTime())) throw chatErrors.invalid(location, 'must be in the future');
    // An offset can carry 9999-12-31 past the year 9999, which PostgreSQL would refuse; that far is permanent anyway.
    if (at.getTime() >= latestInstant) throw chatErrors.invalid(location, 'must be before the year 9999; mute without an end instead');
    return at;
  }

  private async apply(caller: Caller, roomId: string, change: PreferenceChange): Promise<void> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const { rows } = await client.query<PreferenceColumns>(
        `select ${preferenceColumns} from room_members m join rooms r on r.id = m.room_id and r.deleted_at is null
          where m.room_id = $1 and m.account_id = $2 for update of m`,
        [roomId, caller.accountId],
      );
      const current = rows[0];
      if (!current) throw roomNotFound();
      const next = {
        archived: change.archived ?? current.archived,
        pinned: change.pinned ?? current.pinned,
        notificationLevel: change.notificationLevel ?? current.notification_level,
        mutedUntil: change.mute === undefined ? storedMute(current) : muteValue(change.mute),
      };
      if (
        next.archived === current.archived &&
        next.pinned === current.pinned &&
        next.notificationLevel === current.notification_level &&
        next.mutedUntil === storedMute(current)
      ) {
        return false;
      }
      const now = this.deps.clock.now();
      await client.query(
        `update room_members
            set archived = $3, pinned = $4, notification_level = $5, muted_until = $6::timestamptz,
                pinned_at = case when not $4 then null when pinned then pinned_at else $7 end
          where room_id = $1 and account_id = $2`,
        [roomId, caller.accountId, next.archived, next.pinned, next.notificationLevel, next.mutedUntil, now],
      );
      const mute = muteState(
        {
          muted_forever: next.mutedUntil === 'infinity',
          muted_until: next.mutedUntil && next.mutedUntil !== 'infinity' ? new Date(next.mutedUntil) : null,
        },
        now,
      );
      await emit(
        client,
        'room.preferences_changed',
        {
          roomId,
          accountId: caller.accountId,
          archived: next.archived,
          pinned: next.pinned,
          notificationLevel: next.notificationLevel,
          ...mute,
        },
        accountsAudience([caller.accountId]),
      );
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
  }

  private async me(caller: Caller, roomId: string): Promise<MemberView> {
    const { rows } = await this.deps.sql.query<MemberRow>(`${memberSelect} and m.account_id = $2`, [roomId, caller.accountId]);
    if (!rows[0]) throw roomNotFound();
    return memberView(rows[0], caller.accountId, this.deps.clock.now());
  }
}
