import { v7 } from 'uuid';

/** Time-ordered identifiers (UUIDv7) for every entity the platform creates. */
export function newId(): string {
  return v7();
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
