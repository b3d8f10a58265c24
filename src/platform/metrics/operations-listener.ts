// The operations listener (METRICS_PORT): GET /metrics in Prometheus's text format, /healthz and /readyz. Kept
// apart from the interfaces' ports so that a scraper needs no API credentials and the metrics never reach the
// public: it binds to loopback unless METRICS_HOST says otherwise.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';

export interface OperationsListenerOptions {
  host: string;
  port: number;
  log: Logger;
  /** The exposition: this process's registry, or every worker's aggregated in a cluster's primary. */
  metrics(): Promise<{ contentType: string; body: string }>;
  /** What /readyz reports: checks by name, ready when all are ok. */
  readiness(): Promise<{ ready: boolean; checks: Record<string, string> }>;
}

export interface OperationsListener {
  /** http://host:port of the listener. */
  url: string;
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export async function startOperationsListener(options: OperationsListenerOptions): Promise<OperationsListener> {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' && path !== '/healthz' && path !== '/readyz') {
      return json(res, 404, { error: 'not_found', message: `${path} is not served here; try /metrics, /healthz or /readyz` });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return json(res, 405, { error: 'method_not_allowed', message: `${req.method} is not allowed on ${path}` }, { allow: 'GET, HEAD' });
    }
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      const r = await options.readiness();
      return json(res, r.ready ? 200 : 503, { status: r.ready ? 'ok' : 'fail', checks: r.checks });
    }
    const { contentType, body } = await options.metrics();
    res.writeHead(200, { 'content-type': contentType });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      options.log.warn({ err }, 'metrics scrape failed');
      if (!res.headersSent) json(res, 500, { error: 'internal_error', message: 'the metrics could not be collected' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
