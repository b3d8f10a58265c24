// Verify keys that must not verify tokens. RSA under 2048 bits can be factored by a determined attacker (NIST
// SP 800-131A disallows it for signatures), so such a key is refused at registration and never used if one is
// stored (by an older version, or written to the database directly).
import { createPublicKey } from 'node:crypto';
import { importSPKI, type CryptoKey } from 'jose';
import type { SqlPool } from '../../platform/db/sql.js';
import type { Logger } from '../../platform/logger.js';
import { allVerifyKeys } from './queries.js';

export const minRsaBits = 2048;

/** Why a PEM public key is too weak, or null. Throws when the PEM is not a public key. */
export function keyWeakness(publicKeyPem: string): string | null {
  const key = createPublicKey(publicKeyPem);
  if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < minRsaBits) return `is an RSA key of ${bits} bits; at least ${minRsaBits} bits are required`;
  }
  return null;
}

/** The key ready to verify with `algorithm`, or why it cannot be used. */
export async function importVerifyKey(publicKeyPem: string, algorithm: string): Promise<{ key: CryptoKey } | { unusable: string }> {
  try {
    const weakness = keyWeakness(publicKeyPem);
    if (weakness) return { unusable: weakness };
    return { key: await importSPKI(publicKeyPem, algorithm) };
  } catch {
    return { unusable: `is not a PEM SubjectPublicKeyInfo public key usable with ${algorithm}` };
  }
}

/**
 * Logs every stored verify key that will not be used, at start, so that operators learn why tokens signed with it
 * are refused (401 unknown_signing_key) before a customer reports it. The platform still starts: one customer's bad
 * key must not take the service down for every other customer.
 */
export async function reportUnusableKeys(sql: SqlPool, log: Logger): Promise<number> {
  const keys = await allVerifyKeys(sql);
  let unusable = 0;
  for (const row of keys) {
    const imported = await importVerifyKey(row.public_key_pem, row.algorithm);
    if (!('unusable' in imported)) continue;
    unusable += 1;
    log.error(
      { moduleCode: row.module_code, customerAccountId: row.customer_account_id, kid: row.kid },
      `verify key "${row.kid}" of module ${row.module_code}, customer ${row.customer_account_id} ${imported.unusable}: it is ignored, and tokens signed with it are refused until a usable key is registered`,
    );
  }
  return unusable;
}
