// Bot tokens, in Telegram's shape: "<the bot's integer id>:<43 random characters of [A-Za-z0-9_-]>" (libraries
// such as aiogram refuse any other), shown once; only their SHA-256 is stored, so the lookup by hash is an index
// probe and a leaked table gives no token. Tokens made before the integer ids ("<32 hex>:<secret>") are found by
// the same hash and keep working until regenerated.
import { createHash, randomBytes } from 'node:crypto';

export function newBotToken(botApiId: number): string {
  return `${botApiId}:${randomBytes(32).toString('base64url')}`;
}

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A webhook secret made by the server: 43 characters of [A-Za-z0-9_-], as Telegram's secret_token allows. */
export function newWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}
