// PostgreSQL write-ahead-log positions ("16/B374D848") as numbers that compare, and as fixed-width text for Redis.

/** The position as a bigint; null for a null position (a primary asked for its replay position). */
export function parseLsn(text: string | null | undefined): bigint | null {
  if (!text) return null;
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** Sixteen hex digits: two positions compare as text exactly as they compare as numbers (the Redis script relies on it). */
export function lsnKey(lsn: bigint): string {
  return lsn.toString(16).padStart(16, '0');
}

export function lsnFromKey(key: string): bigint {
  return BigInt(`0x${key}`);
}
