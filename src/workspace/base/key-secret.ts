// svc_ key secrets: svc_<live|test>_<32 base62 characters from a CSPRNG> (about 190 random bits). Only the SHA-256
// of a key is stored; with that much entropy a fast hash is as safe as a slow one and keeps the gate at one
// indexed lookup.
import { createHash, randomInt } from 'node:crypto';

export type KeyEnvironment = 'live' | 'test';
export const keyEnvironments: readonly KeyEnvironment[] = ['live', 'test'];

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const randomLength = 32;
const keyPattern = /^svc_(live|test)_[A-Za-z0-9]{32}$/;

/** Length of the display prefix the seed names: the first 8 characters (svc_live or svc_test). */
export const prefixLength = 8;

export interface NewSecret {
  key: string;
  prefix: string;
  lastFour: string;
  hash: Buffer;
}

export function newSecret(environment: KeyEnvironment): NewSecret {
  // randomInt draws without modulo bias.
  let random = '';
  for (let i = 0; i < randomLength; i++) random += alphabet[randomInt(alphabet.length)];
  const key = `svc_${environment}_${random}`;
  return { key, prefix: key.slice(0, prefixLength), lastFour: key.slice(-4), hash: hashKey(key) };
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** Rejects what cannot be a key (a prefix, a truncated copy) without touching the database. */
export function looksLikeKey(value: string): boolean {
  return keyPattern.test(value);
}
