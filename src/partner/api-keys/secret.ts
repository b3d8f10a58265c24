// API key secrets: <environment>_<40 random base64url characters>. Only the SHA-256 of a key is stored; keys carry
// 240 random bits, so a fast hash is as safe as a slow one and keeps the gate at one indexed lookup.
import { createHash, randomBytes } from 'node:crypto';

import type { KeyEnvironment } from '../../core/keys/environment.js';

export { keyEnvironments, type KeyEnvironment } from '../../core/keys/environment.js';

const keyPattern = /^(live|test|dev)_[A-Za-z0-9_-]{40}$/;

/** Length of the display-only prefix. */
export const prefixLength = 8;

export interface NewSecret {
  key: string;
  prefix: string;
  hash: Buffer;
}

export function newSecret(environment: KeyEnvironment): NewSecret {
  const key = `${environment}_${randomBytes(30).toString('base64url')}`;
  return { key, prefix: key.slice(0, prefixLength), hash: hashKey(key) };
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** Rejects what cannot be a key (a prefix, a truncated copy) without touching the database. */
export function looksLikeKey(value: string): boolean {
  return keyPattern.test(value);
}
