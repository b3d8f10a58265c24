/**
 * A column that holds another table's key. It is declared as a many-to-one relation mapped to the key, so the schema
 * (and the schema check) carries its foreign key while the property stays the plain value the queries read and write.
 * The target is named rather than imported: a layer never imports another layer's entities for a foreign key (the
 * workspace tables point at the chat's accounts).
 */
export function reference<Builder extends { '~options': object }>(
  column: Builder,
  target: string,
  constraint: string,
  onDelete?: 'cascade',
): Builder {
  Object.assign(column['~options'], {
    kind: 'm:1',
    entity: () => target,
    mapToPk: true,
    foreignKeyName: constraint,
    // MikroORM's own defaults (cascade on update, and on delete for keys that are part of the primary key) are not the
    // migrations' rules: PostgreSQL's "no action" unless the migration says on delete cascade.
    updateRule: 'no action',
    deleteRule: onDelete ?? 'no action',
  });
  return column;
}
