// Dates and instants are judged by one rule on every interface (calendar.ts through the Ajv formats): RFC 3339 with a
// year from 0001 to 9999 as written, the years PostgreSQL reads. Year 0000 used to pass the schema and fail in SQL.
import { ajv2020ValidatorCompiler } from './ajv.js';

function accepts(format: 'date' | 'date-time') {
  const validate = ajv2020ValidatorCompiler()({
    schema: { type: 'object', properties: { at: { type: 'string', format } } },
    method: 'GET',
    url: '/',
    httpPart: 'querystring',
  }) as unknown as (data: unknown) => boolean;
  return (at: string) => validate({ at });
}

test('a date of year 0000 is refused, as are days that do not exist; years 0001 to 9999 are accepted', () => {
  const date = accepts('date');
  expect(['0000-01-01', '0000-12-31', '2026-02-29', '2026-13-01', '10000-01-01'].filter(date)).toEqual([]);
  expect(['0001-01-01', '2024-02-29', '9999-12-31'].every(date)).toBe(true);
});

test('an instant written in year 0000 is refused; any offset of years 0001 to 9999 is accepted', () => {
  const instant = accepts('date-time');
  expect(['0000-06-01T00:00:00Z', '0000-12-31T23:59:59+01:00', '2026-11-29T10:00:00'].filter(instant)).toEqual([]);
  expect(['0001-01-01T00:30:00+01:00', '9999-12-31T23:59:59.999Z', '2026-11-29T10:00:00+05:30'].every(instant)).toBe(true);
});
