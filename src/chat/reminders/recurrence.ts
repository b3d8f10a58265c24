// Recurrence rules of reminders: a wall-clock time in an IANA time zone on the days the frequency names. The next
// occurrence is computed on the zone's calendar with luxon, so 09:00 Europe/Berlin is 08:00Z in winter and 07:00Z in
// summer, and days are calendar days (23 or 25 hours long across a change), never fixed 24-hour steps.
import { DateTime, IANAZone } from 'luxon';
import { chatErrors } from '../base/errors.js';

export type Frequency = 'DAILY' | 'WEEKDAYS' | 'WEEKLY' | 'MONTHLY';
export type DayName = 'MONDAY' | 'TUESDAY' | 'WEDNESDAY' | 'THURSDAY' | 'FRIDAY' | 'SATURDAY' | 'SUNDAY';

export interface Recurrence {
  frequency: Frequency;
  /** HH:mm */
  time: string;
  timeZone: string;
  daysOfWeek?: DayName[];
  dayOfMonth?: number;
}

const dayNames: DayName[] = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

/** The rule as stored and shown: only the fields its frequency uses, days in week order, the zone's canonical name. */
export function normalizeRecurrence(input: Recurrence, location: string): Recurrence {
  // Intl also takes UTC offsets (+05:00); a rule names a zone of the time zone database.
  if (!IANAZone.isValidZone(input.timeZone) || /^[+-]/.test(canonicalZone(input.timeZone))) {
    throw chatErrors.invalid(`${location}.timeZone`, 'is not an IANA time zone name');
  }
  const rule: Recurrence = { frequency: input.frequency, time: input.time, timeZone: canonicalZone(input.timeZone) };
  if (input.frequency === 'WEEKLY') {
    if (!input.daysOfWeek || input.daysOfWeek.length === 0) throw chatErrors.invalid(`${location}.daysOfWeek`, 'is required for WEEKLY');
    rule.daysOfWeek = dayNames.filter((d) => input.daysOfWeek!.includes(d));
  } else if (input.daysOfWeek !== undefined) {
    throw chatErrors.invalid(`${location}.daysOfWeek`, 'is only for WEEKLY');
  }
  if (input.frequency === 'MONTHLY') {
    if (input.dayOfMonth === undefined) throw chatErrors.invalid(`${location}.dayOfMonth`, 'is required for MONTHLY');
    rule.dayOfMonth = input.dayOfMonth;
  } else if (input.dayOfMonth !== undefined) {
    throw chatErrors.invalid(`${location}.dayOfMonth`, 'is only for MONTHLY');
  }
  return rule;
}

/** The zone's name as the time zone database spells it (europe/berlin is Europe/Berlin). */
function canonicalZone(name: string): string {
  return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
}

function fallsOn(rule: Recurrence, day: DateTime): boolean {
  switch (rule.frequency) {
    case 'DAILY':
      return true;
    case 'WEEKDAYS':
      return day.weekday <= 5;
    case 'WEEKLY':
      return rule.daysOfWeek!.includes(dayNames[day.weekday - 1]!);
    case 'MONTHLY':
      // A month without that day takes its last one (the 31st fires on April 30th).
      return day.day === Math.min(rule.dayOfMonth!, day.daysInMonth!);
  }
}

/**
 * The first occurrence strictly after `after`. A local time that the clocks skip that day (02:30 on a
 * spring-forward day) is moved forward by the gap, as luxon does (03:30); a local time that happens twice (02:30 on
 * a fall-back day) fires once, at its later instant, in standard time, as luxon resolves it.
 */
export function nextOccurrence(rule: Recurrence, after: Date): Date {
  const [hour, minute] = rule.time.split(':').map(Number) as [number, number];
  let day = DateTime.fromJSDate(after, { zone: rule.timeZone }).startOf('day');
  // A month holds every day of a MONTHLY rule and a week every day of the others; two months always suffice.
  for (let i = 0; i < 64; i++) {
    if (fallsOn(rule, day)) {
      const at = DateTime.fromObject({ year: day.year, month: day.month, day: day.day, hour, minute }, { zone: rule.timeZone });
      if (at.toMillis() > after.getTime()) return at.toJSDate();
    }
    day = day.plus({ days: 1 });
  }
  throw new Error(`no occurrence of ${JSON.stringify(rule)} within 64 days of ${after.toISOString()}`);
}
