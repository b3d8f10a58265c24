// Small data builders for the tests: picking one of two values by turn or by flag, and reading optional fields
// with their fallback, so that the test bodies stay straight-line.

/** `even` for even i, `odd` for odd i: spreads a loop's items across two of anything. */
export function alternate<T>(i: number, even: T, odd: T): T {
  return i % 2 === 0 ? even : odd;
}

/** `whenTrue` or `whenFalse` by the flag: picks the value a table row asks for. */
export function choose<T>(flag: boolean, whenTrue: T, whenFalse: T): T {
  return flag ? whenTrue : whenFalse;
}

/** The value, or the fallback when it is null or undefined. */
export function orDefault<T>(value: T | null | undefined, fallback: T): T {
  return value ?? fallback;
}

/** `{ [key]: value }` when the value is given, `{}` when it is undefined: an optional field to spread. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
