// The workspace API's tables as typed queries see them, from its own MikroORM entities (platform/db/typed.ts). A
// folder that moves from hand-written SQL to typed queries adds the entities of the tables it reads here.
import { typedQueries, type TablesOf } from '../platform/db/typed.js';
import type { HrAttendanceEntity, HrEmployeeEntity, HrLeaveEntity } from './hr/entities.js';
import type { TicketCommentEntity, TicketEntity } from './tickets/entities.js';

export type WorkspaceTables = TablesOf<
  typeof HrEmployeeEntity | typeof HrAttendanceEntity | typeof HrLeaveEntity | typeof TicketEntity | typeof TicketCommentEntity
>;

/** Builds the workspace API's statements; run them with rows / firstRow / affected of platform/db/typed.ts. */
export const workspaceDb = typedQueries<WorkspaceTables>();
