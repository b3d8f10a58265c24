// A lean keep-alive HTTP/1.1 client for the load generator (in the manner of autocannon): one socket per
// concurrency slot, each request's bytes prepared once, responses parsed just enough (status, Content-Length or
// chunked body). It costs far less CPU per request than fetch, and on a small machine the client's CPU is taken
// from the server it measures.
import { connect, type Socket } from 'node:net';

export interface HttpResponse {
  status: number;
  body: string;
}

interface Pending {
  resolve: (r: HttpResponse) => void;
  reject: (e: Error) => void;
}

const crlf2 = Buffer.from('\r\n\r\n');

/** One connection; requests are sent one at a time (no pipelining), as a browser or SDK would. */
export class HttpConnection {
  private socket: Socket | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Pending | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  private open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.tryParse();
    });
    const fail = (err: Error) => {
      this.socket = undefined;
      this.buffer = Buffer.alloc(0);
      const p = this.pending;
      this.pending = undefined;
      p?.reject(err);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
    this.socket = socket;
    return socket;
  }

  private tryParse(): void {
    const p = this.pending;
    if (!p) return;
    const headEnd = this.buffer.indexOf(crlf2);
    if (headEnd < 0) return;
    const head = this.buffer.toString('latin1', 0, headEnd);
    const status = Number(head.slice(9, 12));
    const lower = head.toLowerCase();
    const bodyStart = headEnd + 4;
    let body: string;
    let consumed: number;
    const cl = /\r\ncontent-length:\s*(\d+)/.exec(lower);
    if (cl) {
      const length = Number(cl[1]);
      if (this.buffer.length < bodyStart + length) return;
      body = this.buffer.toString('utf8', bodyStart, bodyStart + length);
      consumed = bodyStart + length;
    } else if (/\r\ntransfer-encoding:\s*chunked/.test(lower)) {
      const parts: Buffer[] = [];
      let at = bodyStart;
      for (;;) {
        const lineEnd = this.buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = parseInt(this.buffer.toString('latin1', at, lineEnd), 16);
        if (this.buffer.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          consumed = lineEnd + 4;
          break;
        }
        parts.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts).toString('utf8');
    } else {
      body = '';
      consumed = bodyStart;
    }
    this.buffer = consumed === this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(consumed);
    this.pending = undefined;
    if (/\r\nconnection:\s*close/.test(lower)) this.close();
    p.resolve({ status, body });
  }

  request(raw: Buffer): Promise<HttpResponse> {
    if (this.pending) return Promise.reject(new Error('a request is already in flight on this connection'));
    const socket = this.socket ?? this.open();
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      socket.write(raw);
    });
  }

  close(): void {
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return;
    socket.removeAllListeners('close');
    socket.removeAllListeners('error');
    socket.on('error', () => undefined);
    socket.destroy();
  }
}

/** The bytes of one request, built once and sent many times. */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): { host: string; port: number; bytes: Buffer } {
  const u = new URL(url);
  const lines = [`${method} ${u.pathname}${u.search} HTTP/1.1`, `host: ${u.host}`, 'connection: keep-alive'];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  const payload = body === undefined ? undefined : Buffer.from(body);
  if (payload) lines.push(`content-length: ${payload.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return { host: u.hostname, port: Number(u.port || 80), bytes: payload ? Buffer.concat([head, payload]) : head };
}
