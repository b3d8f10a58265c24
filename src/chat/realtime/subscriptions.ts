// The user destinations a session may subscribe to and what a SUBSCRIBE frame must carry for each.
import { escapeValue, StompProtocolError, type Frame } from './frame.js';
import { requiredHeader } from './session-frames.js';

export const EVENTS = '/user/queue/events';
export const SESSION = '/user/queue/session';
/** Typing and presence notices: no seq, no log, nothing to resume (docs/realtime.md "Presence and typing"). */
export const EPHEMERAL = '/user/queue/ephemeral';
/** The one destination a client may SEND to. */
const typingDestination = /^\/app\/rooms\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\/typing$/;

export interface EventSubscription {
  id: string;
  destination: typeof EVENTS;
  /** `subscription:<id>`, escaped once. */
  idHeader: string;
  /** Highest seq sent; undefined until the starting position is known. */
  lastSent: number | undefined;
  /** live: deliveries go straight out; otherwise the log is being read and deliveries only leave a mark. */
  live: boolean;
  /** Highest and lowest seq announced while not live. */
  pendingMax: number;
  pendingMin: number;
  reading: boolean;
}

export interface NoticeSubscription {
  id: string;
  destination: typeof SESSION | typeof EPHEMERAL;
}

export type Subscription = EventSubscription | NoticeSubscription;

/** The subscription a SUBSCRIBE frame asks for, beside those the session holds; refused with a protocol error. */
export function subscriptionOf(frame: Frame, held: Map<string, Subscription>, maxSubscriptions: number): Subscription {
  const id = requiredHeader(frame, 'id');
  const destination = requiredHeader(frame, 'destination');
  if (held.has(id)) throw new StompProtocolError('duplicate_subscription', `subscription id "${id}" is in use`);
  const ack = frame.headers.get('ack') ?? 'auto';
  if (ack !== 'auto') throw new StompProtocolError('ack_not_supported', 'only ack:auto subscriptions are supported');
  if (held.size >= maxSubscriptions) {
    throw new StompProtocolError('too_many_subscriptions', `a connection may hold ${maxSubscriptions} subscriptions`);
  }
  const resume = frame.headers.get('resume-after');
  if (destination === SESSION || destination === EPHEMERAL) {
    if (resume !== undefined) throw new StompProtocolError('invalid_header', 'resume-after applies to /user/queue/events only');
    return { id, destination };
  }
  if (destination !== EVENTS)
    throw new StompProtocolError(
      'unknown_destination',
      `no destination "${destination.slice(0, 100)}"; use ${EVENTS}, ${EPHEMERAL} or ${SESSION}`,
    );
  if (resume !== undefined && !/^\d{1,15}$/.test(resume))
    throw new StompProtocolError('invalid_header', 'resume-after must be a seq (a whole number)');
  return {
    id,
    destination,
    idHeader: `subscription:${escapeValue(id)}`,
    lastSent: resume === undefined ? undefined : Number(resume),
    live: false,
    pendingMax: 0,
    pendingMin: Number.MAX_SAFE_INTEGER,
    reading: false,
  };
}

/** The room of a SEND frame's destination, /app/rooms/{roomId}/typing, lower case. */
export function typingRoomOf(frame: Frame): string {
  const destination = requiredHeader(frame, 'destination');
  const match = typingDestination.exec(destination);
  if (!match)
    throw new StompProtocolError('send_not_supported', 'clients SEND only to /app/rooms/{roomId}/typing; changes go through the REST API');
  return match[1]!.toLowerCase();
}
