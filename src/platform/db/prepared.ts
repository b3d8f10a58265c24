// Hot statements run as named prepared statements. An unnamed statement (the driver's default) is parsed and
// planned by PostgreSQL on every call; a named one is parsed once per connection, and after a few executions its
// plan is reused when the planner finds a generic plan no worse. For the send statement, three writing CTEs,
// parsing and planning were more than half of its database CPU (docs/performance.md).
//
// Only for texts built from a fixed set of templates, never with values written into the text: every distinct text
// stays prepared on each pooled connection for the connection's life.
import type { QueryConfig } from 'pg';

/** Distinct texts beyond this run unnamed: a safety bound, far above the templates the hot paths have. */
const MAX_NAMED = 500;

const names = new Map<string, string>();

/** The statement as a named query (one name per distinct text, the same on every connection). */
export function prepared(text: string, values: unknown[]): QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMED) return { text, values };
    name = `hot_${names.size + 1}`;
    names.set(text, name);
  }
  return { name, text, values };
}
