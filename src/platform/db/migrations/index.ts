// Committed migrations in the order they apply. A new migration is appended, never edited once landed.
import { Migration20261121000001Init } from './Migration20261121000001Init.js';

export const migrations = [{ name: 'Migration20261121000001Init', class: Migration20261121000001Init }];
