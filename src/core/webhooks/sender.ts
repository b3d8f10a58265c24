// One HTTPS POST of a delivery: the host resolved and checked once (targets.ts), the connection made to that
// address (the name still used for SNI and certificate checks), the receiver's time-out over the whole exchange,
// and the answer classified: 2xx delivered; 408, 429, 5xx, 3xx and no answer at all (DNS, refused target, TLS,
// connection, time-out) retried; any other 4xx permanent. Connections are kept alive per receiver.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { createSecureContext, rootCertificates } from 'node:tls';
import { pinnedLookup } from '../../platform/http/outbound/index.js';
import { hostOf, parseWebhookUrl, resolveTarget, TargetRefused, type HostLookup, type ResolvedTarget } from './targets.js';
import { startOutboundCall } from '../../platform/tracing/outbound.js';

export const excerptLength = 1000;
const maxResponseBytes = 64 * 1024;

export interface SendOutcome {
  /** The receiver's HTTP status; null when no answer came. */
  status: number | null;
  ok: boolean;
  /** Whether a failure may be retried (5xx, 408, 429, 3xx, no answer); false for success and other 4xx. */
  retryable: boolean;
  excerpt: string;
  latencyMs: number;
  /** Why no answer came; null when one came. */
  error: string | null;
}

export interface SenderOptions {
  allowPrivateTargets: boolean;
  /** PEM of extra trusted CAs (WEBHOOK_CA_FILE), added to Node's bundled roots. */
  caPem?: string;
  timeoutMs: number;
  /** The resolver (tests give their own); the system's by default. */
  lookup?: HostLookup;
}

export function readCaFile(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const pem = readFileSync(path, 'utf8');
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`WEBHOOK_CA_FILE ${path} holds no PEM certificate`);
  return pem;
}

function classify(status: number): { ok: boolean; retryable: boolean } {
  if (status >= 200 && status < 300) return { ok: true, retryable: false };
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { ok: false, retryable: false };
  return { ok: false, retryable: true };
}

function noAnswer(started: number, error: string): SendOutcome {
  return { status: null, ok: false, retryable: true, excerpt: '', latencyMs: Math.round(performance.now() - started), error };
}

function errorName(err: unknown): string {
  if (err instanceof TargetRefused) return `target_refused: ${err.message}`;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string') return ['ENOTFOUND', 'EAI_AGAIN', 'ETIMEOUT'].includes(e.code) ? `dns: ${e.code}` : e.code;
  return String(e?.message ?? err).slice(0, 200);
}

export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: SenderOptions) {
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: 256,
      // One context built once: a `ca` option would be copied into the agent's pool key on every request.
      ...(options.caPem ? { secureContext: createSecureContext({ ca: [...rootCertificates, options.caPem] }) } : {}),
    });
  }

  /** POSTs body with exactly these headers; never throws. */
  async post(rawUrl: string, body: string, headers: Record<string, string>): Promise<SendOutcome> {
    const started = performance.now();
    const url = parseWebhookUrl(rawUrl);
    if (typeof url === 'string') return { ...noAnswer(started, `invalid_url: ${url}`), retryable: false };
    const call = startOutboundCall('POST', url);
    let target: ResolvedTarget;
    try {
      target = await resolveTarget(url, this.options.allowPrivateTargets, this.options.timeoutMs, this.options.lookup);
    } catch (err) {
      call.end(null, errorName(err));
      return noAnswer(started, errorName(err));
    }
    const bytes = Buffer.from(body, 'utf8');
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      let status: number | null = null;
      let latencyMs = 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        call.end(status, error ?? undefined);
        const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, excerptLength);
        if (status === null) return resolve({ ...noAnswer(started, error ?? 'no_response'), excerpt });
        resolve({ status, ...classify(status), excerpt, latencyMs, error: null });
      };
      const req = request({
        protocol: 'https:',
        hostname: hostOf(url),
        port: url.port === '' ? 443 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, Host: url.host, 'Content-Length': String(bytes.length) },
        agent: this.agent,
        lookup: pinnedLookup(target),
      });
      // The time-out covers the whole exchange, the name's resolution included.
      const timer = setTimeout(
        () => {
          req.destroy();
          finish('timeout');
        },
        Math.max(1, this.options.timeoutMs - (performance.now() - started)),
      );
      req.on('response', (res) => {
        status = res.statusCode ?? null;
        latencyMs = Math.round(performance.now() - started);
        res.on('data', (chunk: Buffer) => {
          if (size < maxResponseBytes) chunks.push(chunk);
          size += chunk.length;
          // A huge answer is cut off: its status is what counts.
          if (size >= maxResponseBytes) {
            res.destroy();
            finish(null);
          }
        });
        res.on('end', () => finish(null));
        res.on('error', () => finish(null));
        res.on('close', () => finish(null));
      });
      req.on('error', (err) => finish(errorName(err)));
      req.end(bytes);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
