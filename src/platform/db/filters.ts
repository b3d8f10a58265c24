// The one builder of dynamic WHERE clauses over numbered parameters ($1, $2, ...), for lists with optional filters.

/** A WHERE clause built from optional equality filters, numbering its parameters after the given ones. */
export class Filters {
  readonly clauses: string[] = [];
  constructor(readonly params: unknown[]) {}

  /** Adds `expression = value` when the value is given. */
  eq(expression: string, value: unknown): this {
    if (value === undefined) return this;
    this.params.push(value);
    this.clauses.push(`${expression} = $${this.params.length}`);
    return this;
  }

  /** Adds a clause whose `$?` is replaced by the value's parameter number, when the value is given. */
  raw(clause: string, value: unknown): this {
    if (value === undefined) return this;
    this.params.push(value);
    this.clauses.push(clause.replaceAll('$?', `$${this.params.length}`));
    return this;
  }

  /** Adds a clause that needs no parameter, when the condition holds. */
  when(condition: boolean, clause: string): this {
    if (condition) this.clauses.push(clause);
    return this;
  }

  /** The next parameter number, for the caller's own clauses. */
  push(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  sql(): string {
    return this.clauses.map((c) => ` and ${c}`).join('');
  }
}
