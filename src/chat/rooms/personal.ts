// The caller's own settings in a room (archive, mute, notification level, pin) and its read mark. Each change is
// addressed to the caller only; a call that changes nothing answers the current state and emits nothing.
import { inTransaction } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { memberView, type MemberView } from './member-views.js';
import { accountsAudience, emit } from '../events/emit.js';
import { roomNotFound } from '../base/membership.js';
import type { RoomService } from './service.js';
import { lockPreferences, memberWithPreferences, moveReadMark, readState, writePreferences } from './personal-queries.js';
import { muteState, type NotificationLevel, type PreferenceColumns, type RoomView } from '../base/room-views.js';

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

  /** Moves the read mark up to the message (or the room's newest message); a mark never moves backwards. */
  async markRead(caller: Caller, roomId: string, messageId: string | undefined): Promise<ReadState> {
    const audience = JSON.stringify(accountsAudience([caller.accountId]));
    const at = this.deps.clock.now();
    const row = await moveReadMark(this.deps.sql, { accountId: caller.accountId, roomId, messageId, audience, at });
    if (!row) throw roomNotFound();
    if (row.target === null) throw chatErrors.notFound('Message', 'message_not_found');
    const now = await readState(this.deps.sql, caller.accountId, roomId);
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
    await inTransaction(this.deps.sql, async (client) => {
      const current = await lockPreferences(client, caller.accountId, roomId);
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
        return;
      }
      const now = this.deps.clock.now();
      await writePreferences(client, caller.accountId, roomId, next, now);
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
    });
  }

  private async me(caller: Caller, roomId: string): Promise<MemberView> {
    const row = await memberWithPreferences(this.deps.sql, caller.accountId, roomId);
    if (!row) throw roomNotFound();
    return memberView(row, caller.accountId, this.deps.clock.now());
  }
}
