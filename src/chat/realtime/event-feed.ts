// The events of one session's /user/queue/events subscriptions: announced events go straight out while a
// subscription is live and in order; otherwise (a resume, a gap, an announcement lost or reordered) the
// subscription reads the account's log until it has caught up, then goes live again.
import { eventFrame, type EventFrameParts } from './frame.js';
import type { LogPage } from './log.js';
import { eventParts } from './session-frames.js';
import { EVENTS, type EventSubscription, type Subscription } from './subscriptions.js';

/** What the feed needs of its session. */
export interface FeedSession {
  accountId(): string | undefined;
  connected(): boolean;
  readonly subscriptions: ReadonlyMap<string, Subscription>;
  /** Bytes the socket has not sent yet. */
  bufferedAmount(): number;
  nextMessageId(): string;
  send(text: string): void;
  fail(code: string, message: string): void;
}

/** Where the feed reads the log from, and its limits. */
export interface FeedSource {
  readonly options: { catchUpPage: number; maxBufferedBytes: number };
  readLog(accountId: string, after: number, limit: number): Promise<LogPage>;
  lastSeq(accountId: string): Promise<number>;
  onError(err: unknown, what: string): void;
}

export class EventFeed {
  constructor(
    private readonly session: FeedSession,
    private readonly source: FeedSource,
  ) {}

  /**
   * An event announced for this session's account. Live subscriptions send it when it is the next seq; a gap
   * (an announcement lost or reordered) or a subscription still reading the log sends the session to the log.
   */
  deliver(seq: number, event: EventFrameParts): void {
    if (!this.session.connected()) return;
    for (const sub of this.session.subscriptions.values()) {
      if (sub.destination !== EVENTS) continue;
      if (!sub.live || sub.lastSent === undefined) {
        sub.pendingMax = Math.max(sub.pendingMax, seq);
        sub.pendingMin = Math.min(sub.pendingMin, seq);
        continue;
      }
      if (seq <= sub.lastSent) continue;
      if (seq === sub.lastSent + 1) {
        this.sendEvent(sub, seq, event);
        continue;
      }
      sub.live = false;
      sub.pendingMax = seq;
      void this.readLog(sub);
    }
  }

  /** Reads the log after lastSent until it has caught up with every announcement seen meanwhile, then goes live. */
  async readLog(sub: EventSubscription): Promise<void> {
    const accountId = this.session.accountId();
    if (sub.reading || !accountId) return;
    sub.reading = true;
    try {
      if (sub.lastSent === undefined) {
        // A subscription without resume-after starts at the newest event, or before the first one announced
        // since it was made.
        const last = await this.source.lastSeq(accountId);
        sub.lastSent = Math.min(last, sub.pendingMin - 1);
      }
      if (!(await this.catchUp(sub, accountId))) return;
      sub.live = true;
      sub.pendingMax = 0;
      sub.pendingMin = Number.MAX_SAFE_INTEGER;
    } catch (err) {
      this.source.onError(err, 'reading the event log');
      this.session.fail('internal_error', 'the event log could not be read; resume with resume-after');
    } finally {
      sub.reading = false;
    }
  }

  /** Pages of the log sent in order; false when the session or subscription ended or the log cannot resume it. */
  private async catchUp(sub: EventSubscription, accountId: string): Promise<boolean> {
    let emptyReads = 0;
    for (;;) {
      if (!this.holds(sub)) return false;
      const after: number = sub.lastSent!;
      const page = await this.source.readLog(accountId, after, this.source.options.catchUpPage);
      if (!this.holds(sub)) return false;
      if (page.expired || after > page.lastSeq) {
        this.session.fail(
          'resync_required',
          page.expired
            ? `events after seq ${after} are past the retention window; refetch state and subscribe without resume-after`
            : `resume-after ${after} is beyond the newest event (${page.lastSeq}); subscribe without resume-after`,
        );
        return false;
      }
      for (const e of page.events) this.sendEvent(sub, e.seq, eventParts(e.eventId, e.topic, e.createdAt, e.payload));
      if (page.hasMore) {
        await this.drained();
        continue;
      }
      // An announcement that came while reading may be of a row the read could not see yet: read again.
      if (sub.pendingMax > sub.lastSent!) {
        emptyReads = page.events.length === 0 ? emptyReads + 1 : 0;
        if (emptyReads < 3) continue;
      }
      return true;
    }
  }

  private holds(sub: EventSubscription): boolean {
    return this.session.subscriptions.has(sub.id) && this.session.connected();
  }

  /** Sessions whose newest seq in the log is ahead of what a live subscription sent: read the log. */
  behind(lastSeq: number): void {
    for (const sub of this.session.subscriptions.values()) {
      if (sub.destination === EVENTS && sub.live && sub.lastSent !== undefined && sub.lastSent < lastSeq) {
        sub.live = false;
        sub.pendingMax = lastSeq;
        void this.readLog(sub);
      }
    }
  }

  get hasLiveEvents(): boolean {
    for (const sub of this.session.subscriptions.values()) if (sub.destination === EVENTS && sub.live) return true;
    return false;
  }

  private sendEvent(sub: EventSubscription, seq: number, event: EventFrameParts): void {
    sub.lastSent = seq;
    const leading = `${sub.idHeader}\nmessage-id:${this.session.nextMessageId()}\ndestination:${EVENTS}\ncontent-type:application/json`;
    this.session.send(eventFrame(leading, seq, event));
  }

  /** Waits while the socket's send buffer is above half the limit (a large catch-up), at most a few seconds. */
  private async drained(): Promise<void> {
    for (let i = 0; i < 100 && this.session.bufferedAmount() > this.source.options.maxBufferedBytes / 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
