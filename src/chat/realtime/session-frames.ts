// What a session reads from the frames it gets (required headers, the CONNECT's version, heart-beat and token) and
// the frames and bytes it writes besides events.
import { eventFrameParts, serializeFrame, StompProtocolError, type EventFrameParts, type Frame } from './frame.js';

/** A heart-beat, as bytes: one shared buffer rather than a string encoded for every session at every beat. */
export const heartbeatEol = Buffer.from('\n');
/** Every frame goes as a text message, the heart-beat's buffer included. */
export const textMessage = { binary: false } as const;

/**
 * The frame parts of an event: its MESSAGE body is the object GET /api/v1/me/events returns, `{"seq":N` and then
 * the rest, which is the same for every recipient.
 */
export function eventParts(eventId: string, topic: string, createdAt: string, payload: unknown): EventFrameParts {
  return eventFrameParts(topic, eventId, ',' + JSON.stringify({ eventId, topic, createdAt, payload }).slice(1));
}

export function requiredHeader(frame: Frame, name: string): string {
  const value = frame.headers.get(name);
  if (value === undefined || value === '') throw new StompProtocolError('missing_header', `${frame.command} needs a ${name} header`);
  return value;
}

/** A CONNECT's heart-beat offer (cx, cy) and bearer token; refused unless it accepts STOMP 1.2. */
export function connectRequest(frame: Frame): { cx: number; cy: number; token: string } {
  const versions = (frame.headers.get('accept-version') ?? '').split(',').map((v) => v.trim());
  if (!versions.includes('1.2'))
    throw new StompProtocolError('unsupported_version', 'this server speaks STOMP 1.2 only (accept-version must list 1.2)');
  const heartBeat = frame.headers.get('heart-beat') ?? '0,0';
  const hb = /^(\d{1,9}),(\d{1,9})$/.exec(heartBeat);
  if (!hb) throw new StompProtocolError('malformed_frame', 'heart-beat must be two numbers of milliseconds: cx,cy');
  return { cx: Number(hb[1]), cy: Number(hb[2]), token: bearerOf(frame) };
}

/** The token from `Authorization: Bearer <jwt>`, or from passcode (with or without "Bearer "). */
function bearerOf(frame: Frame): string {
  const header = frame.headers.get('Authorization') ?? frame.headers.get('authorization');
  const raw = header ?? frame.headers.get('passcode');
  if (raw === undefined || raw === '')
    throw new StompProtocolError('unauthenticated', 'CONNECT needs an Authorization header "Bearer <jwt>" (or the token as passcode)');
  const match = /^Bearer\s+(\S+)$/i.exec(raw);
  if (match) return match[1]!;
  if (header === undefined && !/\s/.test(raw)) return raw;
  throw new StompProtocolError('token_malformed', 'the Authorization header must be "Bearer <jwt>"');
}

export function refusedStatus(status: string | null): StompProtocolError {
  if (status === 'BANNED') return new StompProtocolError('account_banned', 'the account is banned');
  if (status === null || status === 'ERASED') return new StompProtocolError('account_unknown', 'the account does not exist');
  return new StompProtocolError('account_deactivated', 'the account is deactivated');
}

/** A JSON MESSAGE to a notice subscription, with one header that names what it carries (topic or notice). */
export function noticeMessage(subscription: string, messageId: string, destination: string, kind: [string, string], body: string): string {
  return serializeFrame(
    'MESSAGE',
    [['subscription', subscription], ['message-id', messageId], ['destination', destination], ['content-type', 'application/json'], kind],
    body,
  );
}

/** The ERROR frame for `code`, with the receipt of the frame that caused it. */
export function errorFrame(code: string, message: string, receipt?: string): string {
  const headers: Array<[string, string]> = [
    ['message', message.slice(0, 200)],
    ['code', code],
    ['content-type', 'text/plain'],
  ];
  if (receipt !== undefined) headers.push(['receipt-id', receipt]);
  return serializeFrame('ERROR', headers, message);
}

export function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
