// One rule for every date and instant of every interface: the RFC 3339 forms (ajv-formats' `date` and `date-time`)
// with a year from 0001 to 9999 as written, the years PostgreSQL's date and timestamptz read. Year 0000 parses in
// JavaScript but is out of range in SQL, which made a 500 of it. An instant of 0001-01-01 whose offset puts it in
// the year before is still a moment PostgreSQL stores (as 1 BC), so only the written year is judged.

/** Whether an RFC 3339 date or date-time (its form and existence are Ajv's) is written with a year from 1 to 9999. */
export function inStoredYears(dateOrDateTime: string): boolean {
  return !dateOrDateTime.startsWith('0000');
}
