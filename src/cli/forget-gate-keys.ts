// A development tool that changed a workspace's plan or rate limits behind the platform's back tells the running
// nodes' key gates to forget what they cached (GateKeyCache), as the API's own plan changes do.
import { randomUUID } from 'node:crypto';
import { gateKeyInvalidationChannel } from '../platform/gate-key-cache.js';
import { publishOnce } from './publish-once.js';

export async function forgetGateKeys(redisUrl: string | undefined, tool: string): Promise<void> {
  if (!redisUrl) return;
  try {
    await publishOnce(redisUrl, gateKeyInvalidationChannel, `${randomUUID()} *`, tool);
  } catch (err) {
    process.stderr.write(
      `${tool}: could not reach Redis to refresh the key gates (${(err as Error).message}); running nodes see the change within KEY_CACHE_TTL_MS\n`,
    );
  }
}
