// Each caller's last write position, in Redis so that every node routes the caller's next read by it. The value only
// ever grows (two writes of one caller finishing on two nodes in either order leave the later position), and it
// expires once every replica still in rotation has replayed it for certain (see ReadRouter).
import type { Redis } from '../redis.js';
import { lsnFromKey, lsnKey } from './lsn.js';

const keyOf = (caller: string) => `platform:write-lsn:{${caller}}`;

// Sets the position when it is past the stored one (fixed-width hex compares as text), and renews the expiry.
const keepLater = `
local current = redis.call('GET', KEYS[1])
if (not current) or current < ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;

export class WritePositions {
  constructor(
    private readonly redis: Redis,
    private readonly ttlMs: number,
  ) {}

  async remember(caller: string, lsn: bigint): Promise<void> {
    await this.redis.eval(keepLater, 1, keyOf(caller), lsnKey(lsn), String(this.ttlMs));
  }

  /** The caller's last write position still in force; null when none is (no write, or it expired). */
  async lastOf(caller: string): Promise<bigint | null> {
    const value = await this.redis.get(keyOf(caller));
    return value ? lsnFromKey(value) : null;
  }
}
