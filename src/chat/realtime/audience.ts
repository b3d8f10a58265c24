// Who an outbox event reaches, read from its payload's `audience` (docs/events.md). Anything unreadable reaches
// nobody: a malformed payload must never stop the relay, which would hold back every later event.
import { isUuid } from '../../platform/ids.js';

/** The recipients of a batch of events, as typed arrays for one set-based statement (event id beside each key). */
export interface AudienceArrays {
  roomEvents: number[];
  roomIds: string[];
  channelEvents: number[];
  channelIds: string[];
  accountEvents: number[];
  accountIds: string[];
  everyoneEvents: number[];
  moduleEvents: number[];
  moduleCodes: string[];
}

export function emptyAudience(): AudienceArrays {
  return {
    roomEvents: [],
    roomIds: [],
    channelEvents: [],
    channelIds: [],
    accountEvents: [],
    accountIds: [],
    everyoneEvents: [],
    moduleEvents: [],
    moduleCodes: [],
  };
}

/** Adds one event's audience to the arrays; returns false when the event reaches nobody by construction. */
export function addAudience(into: AudienceArrays, eventId: number, payload: unknown): boolean {
  const audience = (payload as { audience?: unknown } | null)?.audience as Record<string, unknown> | undefined;
  if (!audience || typeof audience !== 'object') return false;
  switch (audience.kind) {
    case 'room':
      if (typeof audience.roomId !== 'string' || !isUuid(audience.roomId)) return false;
      into.roomEvents.push(eventId);
      into.roomIds.push(audience.roomId);
      return true;
    case 'channel':
      if (typeof audience.channelId !== 'string' || !isUuid(audience.channelId)) return false;
      into.channelEvents.push(eventId);
      into.channelIds.push(audience.channelId);
      return true;
    case 'accounts': {
      if (!Array.isArray(audience.accountIds)) return false;
      let any = false;
      for (const id of audience.accountIds) {
        if (typeof id !== 'string' || !isUuid(id)) continue;
        into.accountEvents.push(eventId);
        into.accountIds.push(id);
        any = true;
      }
      return any;
    }
    case 'broadcast': {
      if (audience.modules === 'all') {
        into.everyoneEvents.push(eventId);
        return true;
      }
      if (!Array.isArray(audience.modules)) return false;
      let any = false;
      for (const code of audience.modules) {
        if (typeof code !== 'string') continue;
        into.moduleEvents.push(eventId);
        into.moduleCodes.push(code);
        any = true;
      }
      return any;
    }
    default:
      return false;
  }
}
