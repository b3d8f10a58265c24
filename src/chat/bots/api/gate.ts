// Every Bot API request names its bot by the token in its path (/bot/<token>/<method>). The token is checked first,
// before routing answers and before the body is read: a wrong, regenerated or deleted token (or a bot whose account
// was deactivated or banned) is 401 Unauthorized for every path, known method or not, and says nothing else.
import type { FastifyRequest } from 'fastify';
import type { SqlPool } from '../../../platform/db/sql.js';
import type { Runner } from '../../../platform/db/typed.js';
import { tokenHash } from '../tokens.js';
import { botOfTokenHash } from './bot-queries.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';
import { unsupportedReason } from './unsupported.js';

const tokenInPath = /^\/bot\/([^/?#]*)\/([^/?#]*)/;

/** HTTP methods each Bot API method answers, from the spec (GET also answers HEAD). */
export function declaredMethods(spec: Record<string, unknown>): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const [path, item] of Object.entries((spec.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    const name = path.split('/').pop()!;
    const verbs = Object.keys(item).map((m) => m.toUpperCase());
    if (verbs.includes('GET')) verbs.push('HEAD');
    result.set(name, verbs);
  }
  return result;
}

export async function findBot(sql: Runner, token: string): Promise<BotPrincipal | null> {
  const hash = tokenHash(token);
  const row = await botOfTokenHash(sql, hash);
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    apiId: row.bot_api_id,
    username: row.username,
    displayName: row.display_name,
    moduleCode: row.module_code,
    customerAccountId: row.customer_account_id,
    tokenHash: hash,
  };
}

/**
 * The token is checked before anything else, except the answer to an HTTP method a Bot API method does not take
 * (405 with Allow, or the OPTIONS answer): which verbs the published methods take is no secret.
 */
export function tokenGate(sql: SqlPool, declared: Map<string, string[]>) {
  return async (request: FastifyRequest): Promise<void> => {
    const match = tokenInPath.exec(request.url);
    // No token and method segments: routing answers 404.
    if (!match) return;
    const verbs = declared.get(match[2]!);
    if (verbs && !verbs.includes(request.method)) return;
    let token: string;
    try {
      token = decodeURIComponent(match[1]!);
    } catch {
      throw botApiErrors.unauthorized();
    }
    const bot = token === '' ? null : await findBot(sql, token);
    if (!bot) throw botApiErrors.unauthorized();
    request.bot = bot;
    // A Telegram method with no counterpart here: 400 saying why, not the 404 of an unknown name.
    const reason = verbs ? undefined : unsupportedReason(match[2]!);
    if (reason) throw botApiErrors.badRequest(`method ${match[2]} is not supported: ${reason}`);
  };
}
