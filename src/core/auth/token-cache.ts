// Tokens this node has verified, keyed by the token text, so that a client sending the same bearer token on every
// request pays the signature check (an ECDSA or RSA verify, the largest CPU cost of a small request) once. An entry
// is trusted only while the verify keys it was checked against are still the node's current keys for its issuer
// and customer (the same cache, invalidated through Redis when keys change on any node), and only while its time
// claims hold at the current clock; anything else is verified again from scratch. Account status is not cached
// here: it is checked on every request through the account cache.
import type { JWTPayload } from 'jose';
import type { VerifyKey } from './verify-key-cache.js';

export interface VerifiedToken {
  iss: string;
  cid: string;
  /** The key set the signature was checked against (identity, not content). */
  keys: VerifyKey[];
  payload: JWTPayload;
}

/** Entries beyond this are evicted oldest first (roughly 30 MB at the most). */
const maxEntries = 50_000;

export class VerifiedTokenCache {
  private readonly entries = new Map<string, VerifiedToken>();

  /**
   * The verified token when its time claims hold at `nowSec` with `toleranceSec`, exactly as jose checks them
   * (nbf > now + tolerance and exp <= now - tolerance fail); undefined otherwise, so the caller verifies afresh.
   */
  get(token: string, nowSec: number, toleranceSec: number): VerifiedToken | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    const { exp, nbf } = hit.payload;
    if ((typeof nbf === 'number' && nbf > nowSec + toleranceSec) || typeof exp !== 'number' || exp <= nowSec - toleranceSec) {
      this.entries.delete(token);
      return undefined;
    }
    return hit;
  }

  set(token: string, entry: VerifiedToken): void {
    this.entries.delete(token);
    this.entries.set(token, entry);
    if (this.entries.size > maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(token: string): void {
    this.entries.delete(token);
  }

  get size(): number {
    return this.entries.size;
  }
}
