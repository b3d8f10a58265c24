import type pg from 'pg';

/** A pool or a client inside a transaction: what partner services run their SQL on. */
export type Queryable = Pick<pg.Pool, 'query'>;
