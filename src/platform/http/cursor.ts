// Opaque cursors: base64url of a small JSON keyset. Anything that does not decode to the expected shape
// is rejected by the caller with its interface's invalid-cursor error.

export function encodeCursor(keyset: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(keyset), 'utf8').toString('base64url');
}

export function decodeCursor(raw: string): Record<string, unknown> | null {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(raw)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
