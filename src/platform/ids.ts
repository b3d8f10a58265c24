import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

// Random bytes are drawn from the CSPRNG 4 KiB at a time: one call per 256 ids instead of one per id (every request
// takes at least one, for its request id).
const pool = new Uint8Array(16 * 256);
let poolAt = pool.length;
function random16(): Uint8Array {
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const bytes = pool.subarray(poolAt, poolAt + 16);
  poolAt += 16;
  return bytes;
}

// The uuid package's monotonic v7 state: within one millisecond the 31-bit counter seeded from random bits counts
// up, so ids made by this process sort in the order they were made.
const state = { msecs: -Infinity, seq: 0 };

/** Time-ordered identifiers (UUIDv7) for every entity the platform creates. */
export function newId(): string {
  const random = random16();
  const now = Date.now();
  if (now > state.msecs) {
    state.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
    state.msecs = now;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return v7({ random, msecs: state.msecs, seq: state.seq });
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
