import { expiryInstant } from './expiry.js';

describe('expiryInstant', () => {
  test('a date ends with its day in UTC: the key is dead from the next midnight', () => {
    expect(expiryInstant('2026-12-31').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(expiryInstant('2028-02-28').toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(expiryInstant('2027-02-28').toISOString()).toBe('2027-03-01T00:00:00.000Z');
  });

  test('an instant is taken as it is, whatever its offset', () => {
    expect(expiryInstant('2026-12-31T12:30:00Z').toISOString()).toBe('2026-12-31T12:30:00.000Z');
    expect(expiryInstant('2026-12-31T23:30:00-02:00').toISOString()).toBe('2027-01-01T01:30:00.000Z');
  });
});
