// Next occurrences on the zone's calendar, across daylight-saving changes (EU 2026: clocks go forward on Sunday
// March 29 at 02:00 CET and back on Sunday October 25 at 03:00 CEST).
import { type AppError } from '../../platform/http/app-error.js';
import { nextOccurrence, normalizeRecurrence, type Recurrence } from './recurrence.js';

const berlinWeekdays: Recurrence = { frequency: 'WEEKDAYS', time: '09:00', timeZone: 'Europe/Berlin' };

function chain(rule: Recurrence, from: string, n: number): string[] {
  const out: string[] = [];
  let after = new Date(from);
  for (let i = 0; i < n; i++) {
    after = nextOccurrence(rule, after);
    out.push(after.toISOString());
  }
  return out;
}

test('every weekday at 09:00 Europe/Berlin stays 09:00 local across the spring change', () => {
  // Thu 26, Fri 27 (CET, +01:00), then Mon 30 and Tue 31 (CEST, +02:00).
  expect(chain(berlinWeekdays, '2026-03-26T00:00:00Z', 4)).toEqual([
    '2026-03-26T08:00:00.000Z',
    '2026-03-27T08:00:00.000Z',
    '2026-03-30T07:00:00.000Z',
    '2026-03-31T07:00:00.000Z',
  ]);
});

test('and across the autumn change', () => {
  expect(chain(berlinWeekdays, '2026-10-22T12:00:00Z', 3)).toEqual([
    '2026-10-23T07:00:00.000Z',
    '2026-10-26T08:00:00.000Z',
    '2026-10-27T08:00:00.000Z',
  ]);
});

test('a daily local time the clocks skip fires after the jump; one that happens twice fires once', () => {
  const skipped: Recurrence = { frequency: 'DAILY', time: '02:30', timeZone: 'Europe/Berlin' };
  expect(chain(skipped, '2026-03-28T12:00:00Z', 2)).toEqual(['2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
  const twice: Recurrence = { frequency: 'DAILY', time: '02:30', timeZone: 'Europe/Berlin' };
  // 02:30 happens at 00:30Z (CEST) and again at 01:30Z (CET) on October 25: it fires at the later one only.
  expect(chain(twice, '2026-10-24T12:00:00Z', 2)).toEqual(['2026-10-25T01:30:00.000Z', '2026-10-26T01:30:00.000Z']);
});

test('the occurrence at the instant itself is not "after" it', () => {
  expect(nextOccurrence(berlinWeekdays, new Date('2026-03-27T08:00:00Z')).toISOString()).toBe('2026-03-30T07:00:00.000Z');
  expect(nextOccurrence(berlinWeekdays, new Date('2026-03-27T07:59:59.999Z')).toISOString()).toBe('2026-03-27T08:00:00.000Z');
});

test('weekly on chosen days and monthly on a day some months lack', () => {
  const weekly = normalizeRecurrence(
    { frequency: 'WEEKLY', time: '18:30', timeZone: 'America/New_York', daysOfWeek: ['FRIDAY', 'MONDAY'] },
    'body.recurrence',
  );
  expect(weekly.daysOfWeek).toEqual(['MONDAY', 'FRIDAY']);
  // New York moves to EDT on March 8, 2026.
  expect(chain(weekly, '2026-03-01T00:00:00Z', 3)).toEqual([
    '2026-03-02T23:30:00.000Z',
    '2026-03-06T23:30:00.000Z',
    '2026-03-09T22:30:00.000Z',
  ]);
  const monthly: Recurrence = { frequency: 'MONTHLY', time: '00:00', timeZone: 'UTC', dayOfMonth: 31 };
  expect(chain(monthly, '2026-01-15T00:00:00Z', 4)).toEqual([
    '2026-01-31T00:00:00.000Z',
    '2026-02-28T00:00:00.000Z',
    '2026-03-31T00:00:00.000Z',
    '2026-04-30T00:00:00.000Z',
  ]);
});

test('rules are checked and stored canonically', () => {
  expect(normalizeRecurrence({ frequency: 'DAILY', time: '07:15', timeZone: 'europe/berlin' }, 'r')).toEqual({
    frequency: 'DAILY',
    time: '07:15',
    timeZone: 'Europe/Berlin',
  });
  const location = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return (err as AppError).details?.[0]?.location;
    }
    return 'no error';
  };
  expect(location(() => normalizeRecurrence({ frequency: 'DAILY', time: '07:15', timeZone: 'Mars/Olympus' }, 'r'))).toBe('r.timeZone');
  expect(location(() => normalizeRecurrence({ frequency: 'DAILY', time: '07:15', timeZone: '+0500' }, 'r'))).toBe('r.timeZone');
  expect(location(() => normalizeRecurrence({ frequency: 'WEEKLY', time: '07:15', timeZone: 'UTC' }, 'r'))).toBe('r.daysOfWeek');
  expect(location(() => normalizeRecurrence({ frequency: 'DAILY', time: '07:15', timeZone: 'UTC', daysOfWeek: ['MONDAY'] }, 'r'))).toBe(
    'r.daysOfWeek',
  );
  expect(location(() => normalizeRecurrence({ frequency: 'MONTHLY', time: '07:15', timeZone: 'UTC' }, 'r'))).toBe('r.dayOfMonth');
  expect(location(() => normalizeRecurrence({ frequency: 'WEEKDAYS', time: '07:15', timeZone: 'UTC', dayOfMonth: 3 }, 'r'))).toBe(
    'r.dayOfMonth',
  );
});
