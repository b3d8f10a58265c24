// Predicates for finding and waiting: a record whose listed fields have these values, an event of a topic whose
// payload has these fields. Tests pass them to find(), filter() and the waitFor() of probes and receivers.

/** Whether every listed field of the record equals the given value (strictly). */
export function hasFields(record: Record<string, unknown> | null | undefined, fields: Record<string, unknown>): boolean {
  return Object.entries(fields).every(([name, value]) => record?.[name] === value);
}

/** A predicate: true for a record whose listed fields equal these. */
export function withFields(fields: Record<string, unknown>): (record: any) => boolean {
  return (record) => hasFields(record, fields);
}

/** A predicate: true for an event of the topic whose payload has these fields. */
export function eventOf(topic: string, payload: Record<string, unknown> = {}): (e: { topic: string; payload: any }) => boolean {
  return (e) => e.topic === topic && hasFields(e.payload, payload);
}
