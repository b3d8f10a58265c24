// Committed migrations in the order they apply. A new migration is appended, never edited once landed.
import { Migration20261121000001Init } from './Migration20261121000001Init.js';
import { Migration20261121000002Partner } from './Migration20261121000002Partner.js';
import { Migration20261123000001ChatCore } from './Migration20261123000001ChatCore.js';
import { Migration20261124000001Workspace } from './Migration20261124000001Workspace.js';

export const migrations = [
  { name: 'Migration20261121000001Init', class: Migration20261121000001Init },
  { name: 'Migration20261121000002Partner', class: Migration20261121000002Partner },
  { name: 'Migration20261123000001ChatCore', class: Migration20261123000001ChatCore },
  { name: 'Migration20261124000001Workspace', class: Migration20261124000001Workspace },
];
