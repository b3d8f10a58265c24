// A key's expiry as both key APIs accept it: a date (YYYY-MM-DD) means the key works to the end of that day in UTC,
// so it is stored as the next midnight UTC, the first instant it no longer works; anything else is an instant.
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instant from which a key with this expiry is dead. The schema has already checked the value's format. */
export function expiryInstant(value: string): Date {
  const date = datePattern.exec(value);
  if (!date) return new Date(value);
  return new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]) + 1));
}
