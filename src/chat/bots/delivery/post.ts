// One webhook delivery: POST the update as JSON, with the secret in X-Telegram-Bot-Api-Secret-Token. A 2xx answer
// delivers it; anything else (another status, a refused address, no answer in time) is a failure described in
// Telegram's words for getWebhookInfo's last_error_message. Redirects are not followed. The connection goes through
// the platform's outbound guard, which checks the URL again under today's policy and every address it connects to.
import type { ClientRequest } from 'node:http';
import type { SecureContext } from 'node:tls';
import { OutboundRefused, outboundRequest } from '../../../platform/http/outbound/index.js';
import type { WebhookPolicy } from '../webhook-url.js';
import { startOutboundCall } from '../../../platform/tracing/outbound.js';

export type PostOutcome = { ok: true; status: number } | { ok: false; error: string };

const maxAnswerBytes = 64 * 1024;

/** secureContext: the trust for an https receiver beyond the system's roots (delivery/tls.ts). */
export function postUpdate(
  url: string,
  body: string,
  secret: string | null,
  policy: WebhookPolicy,
  timeoutMs: number,
  secureContext?: SecureContext,
): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined = undefined;
    const call = startOutboundCall('POST', url);
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      call.end(outcome.ok ? outcome.status : null, outcome.ok ? undefined : outcome.error);
      resolve(outcome);
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      settle({ ok: false, error: 'Bad webhook: the URL is invalid' });
      return;
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    };
    if (secret !== null) headers['x-telegram-bot-api-secret-token'] = secret;
    let req: ClientRequest;
    try {
      req = outboundRequest(target, { method: 'POST', headers, ...(secureContext ? { secureContext } : {}) }, policy, timeoutMs, (res) => {
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxAnswerBytes) res.destroy();
        });
        res.on('error', () => undefined);
        res.on('close', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) settle({ ok: true, status });
          else settle({ ok: false, error: `Wrong response from the webhook: ${status} ${res.statusMessage ?? ''}`.trim() });
        });
      });
    } catch (err) {
      settle({ ok: false, error: describe(err as NodeJS.ErrnoException) });
      return;
    }
    timer = setTimeout(() => {
      req.destroy();
      settle({ ok: false, error: 'Read timeout expired' });
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => settle({ ok: false, error: describe(err) }));
    req.end(body);
  });
}

function describe(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'Failed to resolve host: Name or service not known';
    case 'EADDRNOTALLOWED':
      return err instanceof OutboundRefused ? `Bad webhook: ${err.message}` : 'Bad webhook: the address may not be called';
    case 'ECONNRESET':
      return 'Connection reset by peer';
    default:
      return tlsFailure(err.code) ? `SSL error: ${err.message}` : `Connection failed: ${err.message}`;
  }
}

/** OpenSSL's verification codes (UNABLE_TO_VERIFY_LEAF_SIGNATURE, DEPTH_ZERO_SELF_SIGNED_CERT, ...) and Node's TLS errors. */
function tlsFailure(code: string | undefined): boolean {
  return (
    code !== undefined && (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code.includes('VERIFY'))
  );
}
