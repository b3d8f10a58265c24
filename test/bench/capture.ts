// Records the SQL statements a request runs on the platform's hot-path pg pool, so that the driver baseline
// replays exactly what the service issued (whatever the service's query looks like after a change) instead of
// a copy of it that could drift. The platform runs in this process, so every pg client of the top-level `pg`
// package passes through Client.prototype.query; the ORM has its own copy of pg and is not recorded.
import pg from 'pg';

export interface Statement {
  text: string;
  values: unknown[];
}

let recording: Statement[] | null = null;
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    if (recording) {
      const [first, second] = args as [unknown, unknown];
      const config = typeof first === 'object' && first !== null ? (first as { text?: unknown; values?: unknown }) : undefined;
      const text = typeof first === 'string' ? first : config?.text;
      const values = Array.isArray(second) ? second : Array.isArray(config?.values) ? config.values : [];
      if (typeof text === 'string') recording.push({ text, values });
    }
    return original.apply(this, args);
  };
}

/** Transaction control and the outbox relay's own work are not part of a request's statements. */
const incidental = (s: Statement) => /^\s*(begin|commit|rollback|savepoint|release|set\s)/i.test(s.text) || /\boutbox\b/i.test(s.text);

/** The statements issued while `fn` runs (run it alone: everything on the pool in that window is recorded). */
export async function captureStatements(fn: () => Promise<unknown>): Promise<Statement[]> {
  install();
  const statements: Statement[] = [];
  recording = statements;
  try {
    await fn();
  } finally {
    recording = null;
  }
  return statements.filter((s) => !incidental(s));
}

/** One line per statement, for the report. */
export function describeStatements(statements: Statement[], width = 110): string[] {
  return statements.map((s, i) => {
    const flat = s.text.replace(/\s+/g, ' ').trim();
    return `${i + 1}. ${flat.length > width ? `${flat.slice(0, width - 3)}...` : flat}`;
  });
}
