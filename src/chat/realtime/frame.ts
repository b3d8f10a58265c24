// STOMP 1.2 frames: a strict incremental parser for what clients send, and the serialiser of what the server
// sends. Frames may span WebSocket messages and a message may carry several frames; EOLs between frames are
// heart-beats. Limits are checked before anything is buffered beyond them.

export interface Frame {
  command: string;
  /** Header values, the first occurrence of each name winning (STOMP 1.2 "Repeated Header Entries"). */
  headers: Map<string, string>;
  body: Buffer;
}

export interface FrameLimits {
  /** Bytes of one frame: command, headers and body. */
  maxFrameBytes: number;
  maxHeaders: number;
}

/** A frame the server must refuse; `code` goes into the ERROR frame's `code` header. */
export class StompProtocolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const clientCommands = new Set([
  'CONNECT',
  'STOMP',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
]);
const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

/** STOMP 1.2 header value escapes; CONNECT and CONNECTED frames are exempt. */
function unescapeValue(raw: string): string {
  if (!raw.includes('\\')) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = raw[++i];
    if (next === 'n') out += '\n';
    else if (next === 'r') out += '\r';
    else if (next === 'c') out += ':';
    else if (next === '\\') out += '\\';
    else throw new StompProtocolError('malformed_frame', `undefined escape sequence "\\${next ?? ''}" in a header`);
  }
  return out;
}

export function escapeValue(value: string): string {
  return value.replace(/[\\\r\n:]/g, (c) => (c === '\\' ? '\\\\' : c === '\r' ? '\\r' : c === '\n' ? '\\n' : '\\c'));
}

/** What a parser holds between frames: one empty buffer shared by every session, since most messages are whole. */
const nothing = Buffer.alloc(0);

export class FrameParser {
  private pending: Buffer = nothing;

  constructor(private readonly limits: FrameLimits) {}

  /** Bytes held of a frame not complete yet. */
  get buffered(): number {
    return this.pending.length;
  }

  /**
   * Consumes one chunk; returns the complete frames in order and the number of heart-beats (EOLs) between
   * them. Throws StompProtocolError on anything malformed or beyond the limits.
   */
  push(chunk: Buffer): { frames: Frame[]; heartbeats: number } {
    let buf = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Frame[] = [];
    let heartbeats = 0;
    let pos = 0;
    for (;;) {
      // EOLs outside frames are heart-beats.
      while (pos < buf.length && (buf[pos] === LF || (buf[pos] === CR && buf[pos + 1] === LF))) {
        pos += buf[pos] === CR ? 2 : 1;
        heartbeats++;
      }
      if (pos >= buf.length) break;
      const parsed = this.frameAt(buf, pos);
      if (!parsed) break;
      frames.push(parsed.frame);
      pos = parsed.end;
    }
    buf = buf.subarray(pos);
    if (buf.length > this.limits.maxFrameBytes) throw oversize(this.limits.maxFrameBytes);
    // Copy the remainder so that the caller's (possibly large) message buffer is not kept alive.
    this.pending = buf.length === 0 ? nothing : Buffer.from(buf);
    return { frames, heartbeats };
  }

  /** The frame starting at `start`, or null when it is not complete yet. */
  private frameAt(buf: Buffer, start: number): { frame: Frame; end: number } | null {
    const max = this.limits.maxFrameBytes;
    let pos = start;
    const readLine = (): string | null => {
      const lf = buf.indexOf(LF, pos);
      if (lf < 0) {
        if (buf.length - start > max) throw oversize(max);
        return null;
      }
      const end = lf > pos && buf[lf - 1] === CR ? lf - 1 : lf;
      const line = buf.toString('utf8', pos, end);
      pos = lf + 1;
      if (pos - start > max) throw oversize(max);
      return line;
    };
    const command = readLine();
    if (command === null) return null;
    if (!clientCommands.has(command)) throw new StompProtocolError('unknown_command', `unknown command "${command.slice(0, 40)}"`);
    const escaped = command !== 'CONNECT' && command !== 'STOMP';
    const headers = new Map<string, string>();
    let count = 0;
    for (;;) {
      const line = readLine();
      if (line === null) return null;
      if (line === '') break;
      if (++count > this.limits.maxHeaders)
        throw new StompProtocolError('too_many_headers', `a frame may carry at most ${this.limits.maxHeaders} headers`);
      const colon = line.indexOf(':');
      if (colon <= 0) throw new StompProtocolError('malformed_frame', 'a header line must be name:value');
      const name = escaped ? unescapeValue(line.slice(0, colon)) : line.slice(0, colon);
      const value = escaped ? unescapeValue(line.slice(colon + 1)) : line.slice(colon + 1);
      if (!headers.has(name)) headers.set(name, value);
    }
    const bodyStart = pos;
    const declared = headers.get('content-length');
    let bodyEnd: number;
    if (declared !== undefined) {
      if (!/^\d{1,10}$/.test(declared)) throw new StompProtocolError('malformed_frame', 'content-length must be a number of octets');
      const length = Number(declared);
      if (bodyStart - start + length + 1 > max) throw oversize(max);
      if (buf.length < bodyStart + length + 1) return null;
      bodyEnd = bodyStart + length;
      if (buf[bodyEnd] !== NUL)
        throw new StompProtocolError('malformed_frame', 'the body must end with a NULL octet after content-length octets');
    } else {
      bodyEnd = buf.indexOf(NUL, bodyStart);
      if (bodyEnd < 0) {
        if (buf.length - start > max) throw oversize(max);
        return null;
      }
    }
    if (bodyEnd + 1 - start > max) throw oversize(max);
    return { frame: { command, headers, body: Buffer.from(buf.subarray(bodyStart, bodyEnd)) }, end: bodyEnd + 1 };
  }
}

function oversize(max: number): StompProtocolError {
  return new StompProtocolError('frame_too_large', `frames are limited to ${max} bytes`);
}

/**
 * A server frame as text. Header values are escaped except in CONNECTED (STOMP 1.2); a body gets its
 * content-length in octets.
 */
export function serializeFrame(command: string, headers: Array<[string, string]>, body = ''): string {
  const escape = command !== 'CONNECTED';
  let out = command + '\n';
  for (const [name, value] of headers) out += `${escape ? escapeValue(name) : name}:${escape ? escapeValue(value) : value}\n`;
  if (body.length > 0) out += `content-length:${Buffer.byteLength(body)}\n`;
  return out + '\n' + body + '\0';
}

/** An event as every recipient's MESSAGE frame carries it: all but the seq, escaped and measured once per event. */
export interface EventFrameParts {
  /** The topic and event-id header lines. */
  headers: string;
  /** The JSON body after `{"seq":N`. */
  body: string;
  bodyBytes: number;
}

export function eventFrameParts(topic: string, eventId: string, bodyAfterSeq: string): EventFrameParts {
  return {
    headers: `\ntopic:${escapeValue(topic)}\nevent-id:${escapeValue(eventId)}`,
    body: bodyAfterSeq,
    bodyBytes: Buffer.byteLength(bodyAfterSeq),
  };
}

/**
 * One recipient's MESSAGE frame of an event, as serializeFrame writes it (the same headers in the same order) but
 * built from parts escaped beforehand: a broadcast builds one per session, so nothing here scans a string.
 * `leadingHeaders` are the subscription, message-id, destination and content-type lines, already escaped.
 */
export function eventFrame(leadingHeaders: string, seq: number, parts: EventFrameParts): string {
  const head = `{"seq":${seq}`;
  return `MESSAGE\n${leadingHeaders}\nseq:${seq}${parts.headers}\ncontent-length:${head.length + parts.bodyBytes}\n\n${head}${parts.body}\0`;
}
