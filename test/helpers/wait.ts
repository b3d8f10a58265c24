// Conditions for the polling helpers. The eventually() of test/support/webhooks.ts waits for a value that is not
// undefined (false would end the wait at once), so a condition there is `true` or undefined.

/** `true` when the condition holds, undefined while it does not. */
export function holds(condition: boolean): true | undefined {
  return condition || undefined;
}

/** The value when the condition holds, undefined while it does not. */
export function valueWhen<T>(condition: boolean, value: T): T | undefined {
  return condition ? value : undefined;
}

/** Whether every check passes, run in order: a later check runs only once the earlier ones passed. */
export async function allPass(...checks: Array<() => Promise<boolean>>): Promise<boolean> {
  for (const check of checks) if (!(await check())) return false;
  return true;
}
