// Bot tokens: "<bot id without dashes>:<43 random characters>", shown once; only their SHA-256 is stored, so the
// lookup by hash is an index probe and a leaked table gives no token.
import { createHash, randomBytes } from 'node:crypto';

export function newBotToken(botId: string): string {
  return `${botId.replace(/-/g, '')}:${randomBytes(32).toString('base64url')}`;
}

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A webhook secret made by the server: 43 characters of [A-Za-z0-9_-], as Telegram's secret_token allows. */
export function newWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}
