// WAL positions compare as numbers, and their Redis form compares as text in the same order.
import { lsnFromKey, lsnKey, parseLsn } from './lsn.js';

test('positions parse to numbers across the 32-bit boundary', () => {
  expect(parseLsn('0/0')).toBe(0n);
  expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
  expect(parseLsn('1/0')).toBe(0x1_0000_0000n);
  expect(parseLsn('16/B374D848')).toBe(0x16_b374d848n);
  expect(parseLsn(null)).toBeNull();
  expect(() => parseLsn('16-B374D848')).toThrow(/WAL position/);
});

/** Ascending order of numbers or strings, for sort(). */
function compare<T extends bigint | string>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

test('the fixed-width key orders as the numbers do and reads back', () => {
  const positions = ['0/FFFFFFFF', '1/0', '0/9', '0/10', 'A/1', '10/0'].map((t) => parseLsn(t)!);
  const byNumber = [...positions].sort(compare);
  const byKey = [...positions].sort((a, b) => compare(lsnKey(a), lsnKey(b)));
  expect(byKey).toEqual(byNumber);
  for (const p of positions) expect(lsnFromKey(lsnKey(p))).toBe(p);
});
