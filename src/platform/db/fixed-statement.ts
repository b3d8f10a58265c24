// A typed statement compiled once, at module load, into text whose parameters are named slots: each call binds the
// values in the slots' order. Hot statements (send) then pay no build or compile per call, their text never depends
// on values (a named prepared statement stays one plan per connection), and a value used in several places is one
// parameter, as in the hand-written text other folders still pass their values to.
import { sql, type Compilable, type CompiledQuery, type RawBuilder } from 'kysely';

class Slot {
  constructor(readonly name: string) {}
}

/** A parameter of a fixed statement, filled from the value of the same name at each call. */
export const slot = <T>(name: string): RawBuilder<T> => sql.val(new Slot(name)) as unknown as RawBuilder<T>;

export interface FixedStatement<R, V> {
  /** The statement text: $1, $2, ... follow `order`. */
  readonly text: string;
  bind(values: V): Compilable<R>;
}

/**
 * Compiles `query` once. Every parameter must be a slot named in `order` (a constant such as a scan limit is written
 * with sql.lit, so that it stays in the text).
 */
export function fixedStatement<R, V extends Record<string, unknown>>(
  query: Compilable<R>,
  order: ReadonlyArray<keyof V & string>,
): FixedStatement<R, V> {
  const compiled = query.compile();
  const numbers = compiled.parameters.map((p, i) => {
    const at = p instanceof Slot ? order.indexOf(p.name) : -1;
    if (at < 0) throw new Error(`parameter $${i + 1} of a fixed statement is not a slot of ${order.join(', ')}`);
    return at + 1;
  });
  const text = compiled.sql.replace(/\$(\d+)/g, (_, n: string) => `$${numbers[Number(n) - 1]}`);
  return {
    text,
    bind: (values) => ({
      compile: (): CompiledQuery<R> => ({ ...compiled, sql: text, parameters: order.map((name) => values[name]) }),
    }),
  };
}
