// The STOMP frame parser and serialiser on their own: frames split across and packed into chunks, heart-beats,
// STOMP 1.2 header escapes, content-length bodies, and refusals of what is malformed or beyond the limits.
import { escapeValue, eventFrame, eventFrameParts, FrameParser, serializeFrame, StompProtocolError } from './frame.js';

const limits = { maxFrameBytes: 256, maxHeaders: 4 };
const b = (s: string) => Buffer.from(s, 'utf8');

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof StompProtocolError) return err.code;
    throw err;
  }
  throw new Error('expected a refusal');
}

test('frames packed in one chunk, split across chunks, with CRLF lines and heart-beats between them', () => {
  const p = new FrameParser(limits);
  const first = p.push(b('\nSUBSCRIBE\r\nid:1\r\ndestination:/user/queue/events\r\n\r\n\0\r\n\nUNSUBSCRIBE\nid:1\n\n\0SEN'));
  expect(first.heartbeats).toBe(3);
  expect(first.frames.map((f) => [f.command, Object.fromEntries(f.headers)])).toEqual([
    ['SUBSCRIBE', { id: '1', destination: '/user/queue/events' }],
    ['UNSUBSCRIBE', { id: '1' }],
  ]);
  expect(p.buffered).toBe(3);
  const second = p.push(b('D\ndestination:/x\ncontent-length:5\n\na\0b\0c\0'));
  expect(second.frames).toHaveLength(1);
  expect(second.frames[0]!.command).toBe('SEND');
  // content-length counts octets, so the NULs inside the body belong to it.
  expect(second.frames[0]!.body).toEqual(b('a\0b\0c'));
  expect(p.buffered).toBe(0);
});

test('header escapes apply to every frame but CONNECT; the first of repeated headers wins', () => {
  const p = new FrameParser(limits);
  const { frames } = p.push(b('SUBSCRIBE\nid:a\\cb\\\\c\\nd\nid:second\n\n\0CONNECT\npasscode:x\\cy\n\n\0'));
  expect(frames[0]!.headers.get('id')).toBe('a:b\\c\nd');
  expect(frames[1]!.headers.get('passcode')).toBe('x\\cy');
  expect(refusal(() => new FrameParser(limits).push(b('SUBSCRIBE\nid:a\\tb\n\n\0')))).toBe('malformed_frame');
});

test('refusals: unknown command, header without colon, too many headers, bad content-length, missing NUL', () => {
  expect(refusal(() => new FrameParser(limits).push(b('HELLO\n\n\0')))).toBe('unknown_command');
  expect(refusal(() => new FrameParser(limits).push(b('SUBSCRIBE\nnocolon\n\n\0')))).toBe('malformed_frame');
  expect(refusal(() => new FrameParser(limits).push(b('SUBSCRIBE\na:1\nb:2\nc:3\nd:4\ne:5\n\n\0')))).toBe('too_many_headers');
  expect(refusal(() => new FrameParser(limits).push(b('SEND\ncontent-length:-1\n\n\0')))).toBe('malformed_frame');
  expect(refusal(() => new FrameParser(limits).push(b('SEND\ncontent-length:2\n\nabc\0')))).toBe('malformed_frame');
});

test('a frame beyond the limit is refused as soon as it is known to be, complete or not', () => {
  expect(refusal(() => new FrameParser(limits).push(b(`SEND\n\n${'x'.repeat(300)}\0`)))).toBe('frame_too_large');
  // An announced length beyond the limit is refused before the body arrives.
  expect(refusal(() => new FrameParser(limits).push(b('SEND\ncontent-length:1000\n\n')))).toBe('frame_too_large');
  // A frame that never ends is refused once it holds more than the limit.
  const p = new FrameParser(limits);
  p.push(b(`SEND\n\n${'x'.repeat(200)}`));
  expect(refusal(() => p.push(b('x'.repeat(100))))).toBe('frame_too_large');
  // A header line that never ends, too.
  expect(refusal(() => new FrameParser(limits).push(b(`SUBSCRIBE\nid:${'y'.repeat(300)}`)))).toBe('frame_too_large');
});

test('serialised server frames escape header values (not in CONNECTED) and carry the body length in octets', () => {
  expect(serializeFrame('MESSAGE', [['topic', 'a:b\nc']], 'héllo')).toBe('MESSAGE\ntopic:a\\cb\\nc\ncontent-length:6\n\nhéllo\0');
  expect(serializeFrame('CONNECTED', [['server', 'x:y']])).toBe('CONNECTED\nserver:x:y\n\n\0');
  const parsed = new FrameParser({ maxFrameBytes: 1024, maxHeaders: 8 }).push(b(serializeFrame('SEND', [['k', 'v:\\']], 'body')))
    .frames[0]!;
  expect([parsed.headers.get('k'), parsed.body.toString()]).toEqual(['v:\\', 'body']);
});

test('an event frame built from parts is the frame serializeFrame writes, escapes included', () => {
  const body = { eventId: '42', topic: 'message.created', createdAt: '2026-01-01T00:00:00.000Z', payload: { text: 'é:\n\0' } };
  const parts = eventFrameParts('message.created', '42', ',' + JSON.stringify(body).slice(1));
  const leading = `subscription:${escapeValue('sub:1\\x')}\nmessage-id:s1-7\ndestination:/user/queue/events\ncontent-type:application/json`;
  expect(eventFrame(leading, 9, parts)).toBe(
    serializeFrame(
      'MESSAGE',
      [
        ['subscription', 'sub:1\\x'],
        ['message-id', 's1-7'],
        ['destination', '/user/queue/events'],
        ['content-type', 'application/json'],
        ['seq', '9'],
        ['topic', 'message.created'],
        ['event-id', '42'],
      ],
      JSON.stringify({ seq: 9, ...body }),
    ),
  );
});
