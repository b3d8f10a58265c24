// Files named by an http(s) URL, as Telegram fetches them: one GET through the platform's outbound guard (the URL's
// rules and every address connected to, so no private or loopback target unless the bot policy allows them, as
// BOT_WEBHOOK_ALLOW_PRIVATE does for webhooks), redirects not followed, the body bounded by UPLOAD_MAX_BYTES and the
// whole fetch by a time limit. Plain http is fetched as Telegram fetches it: the bytes become a file the bot could
// have uploaded itself, and no secret travels with the request.
import type { IncomingMessage } from 'node:http';
import { outboundRequest, type OutboundPolicy } from '../../../platform/http/outbound/index.js';
import { startOutboundCall } from '../../../platform/tracing/outbound.js';
import { botApiErrors } from './errors.js';

export interface FetchedFile {
  bytes: Uint8Array;
  /** The answer's Content-Type without parameters, or '' when it named none. */
  contentType: string;
  /** The last segment of the URL's path, decoded ('' when there is none). */
  fileName: string;
}

export interface FileUrlLimits {
  maxBytes: number;
  timeoutMs: number;
}

export const fileUrlPattern = /^https?:\/\//i;

export const wrongFileUrl = () => botApiErrors.badRequest('wrong file identifier/HTTP URL specified');
export const unreadableFileUrl = () => botApiErrors.badRequest('failed to get HTTP URL content');

function fileNameOf(url: URL): string {
  const last = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function readBody(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const status = res.statusCode ?? 0;
    const declared = Number(res.headers['content-length'] ?? 0);
    if (status < 200 || status >= 300 || declared > maxBytes) {
      res.destroy();
      reject(unreadableFileUrl());
      return;
    }
    const chunks: Buffer[] = [];
    let length = 0;
    res.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > maxBytes) {
        res.destroy();
        reject(unreadableFileUrl());
      } else chunks.push(chunk);
    });
    res.on('error', () => reject(unreadableFileUrl()));
    res.on('end', () => (length === 0 ? reject(unreadableFileUrl()) : resolve(Buffer.concat(chunks))));
  });
}

/** The file at `raw`, or Telegram's 400: a URL that may not be fetched, or one whose content could not be had. */
export async function fetchFileUrl(raw: string, policy: OutboundPolicy, limits: FileUrlLimits): Promise<FetchedFile> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw wrongFileUrl();
  }
  const call = startOutboundCall('GET', raw);
  let timer: NodeJS.Timeout | undefined;
  try {
    const { res, body } = await new Promise<{ res: IncomingMessage; body: Buffer }>((resolve, reject) => {
      let req: ReturnType<typeof outboundRequest>;
      try {
        req = outboundRequest(url, { method: 'GET' }, { ...policy, allowHttp: true }, limits.timeoutMs, (res) =>
          readBody(res, limits.maxBytes).then((body) => resolve({ res, body }), reject),
        );
      } catch {
        // The URL itself is refused (credentials, a private address): nothing was connected.
        reject(wrongFileUrl());
        return;
      }
      timer = setTimeout(() => {
        req.destroy();
        reject(unreadableFileUrl());
      }, limits.timeoutMs);
      req.on('error', () => reject(unreadableFileUrl()));
      req.end();
    });
    call.end(res.statusCode ?? null);
    const contentType = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    return { bytes: new Uint8Array(body.buffer, body.byteOffset, body.length), contentType, fileName: fileNameOf(url) };
  } catch (err) {
    call.end(null, err instanceof Error ? err.message : String(err));
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
