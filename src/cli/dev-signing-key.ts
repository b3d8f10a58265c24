// The development signing key: an ES256 key pair kept under DATA_DIR, whose public half is registered as a
// verify key for the development module and customer, so local tools can mint tokens the service accepts.
import { createHash, createPublicKey } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import pg from 'pg';
import type { Config } from '../platform/config/index.js';
import type { Logger } from '../platform/logger.js';
import { newId } from '../platform/ids.js';
import { addModule } from '../app/queries.js';
import { addCustomerKey } from './queries.js';

export interface DevSigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKeyPem: string;
}

interface StoredKey {
  kid: string;
  privateJwk: JWK;
  publicKeyPem: string;
}

export async function loadOrCreateDevKey(dataDir: string): Promise<DevSigningKey> {
  const file = join(dataDir, 'dev-signing-key.json');
  if (!existsSync(file)) {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const publicKeyPem = await exportSPKI(publicKey);
    const stored: StoredKey = { kid: `dev-${newId().slice(0, 8)}`, privateJwk: await exportJWK(privateKey), publicKeyPem };
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  const stored = JSON.parse(await readFile(file, 'utf8')) as StoredKey;
  return { kid: stored.kid, privateKey: (await importJWK(stored.privateJwk, 'ES256')) as CryptoKey, publicKeyPem: stored.publicKeyPem };
}

/** Registers the module and the dev key for one customer; returns true when anything was new. */
export async function registerDevKey(db: pg.Client | pg.Pool, key: DevSigningKey, moduleCode: string, customer: string): Promise<boolean> {
  await addModule(db, moduleCode, `Module ${moduleCode}`);
  const der = createPublicKey(key.publicKeyPem).export({ type: 'spki', format: 'der' });
  const fingerprint = createHash('sha256').update(der).digest('hex');
  return addCustomerKey(db, { id: newId(), moduleCode, customer, kid: key.kid, publicKeyPem: key.publicKeyPem, fingerprint });
}

/** `make run` registers the development key on first start, for the dev module and the platform module. */
export async function registerDevSigningKey(config: Config, databaseUrl: string, log: Logger): Promise<void> {
  const key = await loadOrCreateDevKey(config.dataDir);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await registerDevKey(db, key, 'dev', 'dev');
    await registerDevKey(db, key, config.platformModule, 'dev');
  } finally {
    await db.end();
  }
  log.info({ kid: key.kid }, 'development signing key registered; mint tokens with `npm run --silent dev-token`');
}
