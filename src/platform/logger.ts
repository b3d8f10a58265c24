import { pino, type Logger } from 'pino';
import { redactUrl } from './log-redaction.js';

export type { Logger };

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/** The request as the request lines show it, its URL without credentials (log-redaction.ts). */
function requestSerializer(req: LoggedRequest) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** destination: where the lines go (standard output by default; tests read a run's log from their own stream). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, base: { pid: process.pid }, serializers: { req: requestSerializer } };
  return destination ? pino(options, destination) : pino(options);
}
