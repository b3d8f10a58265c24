// Every MikroORM entity of the platform; the ORM is initialised with this list.
import { AccountEntity } from '../chat/accounts/entities.js';
import { CustomerKeyEntity, ModuleEntity } from '../chat/admin-modules/entities.js';

export const entities = [ModuleEntity, CustomerKeyEntity, AccountEntity];
