import type { operations } from '../../../generated/types/workspace.js';
import type { HandlerMap } from '../../platform/http/typed.js';
import type { WorkspaceContext } from './context.js';

export type WorkspaceOperations = operations;
export type WorkspaceHandlers = HandlerMap<operations, WorkspaceContext>;
/** The handlers of one feature folder. */
export type WorkspaceFeatureHandlers<K extends keyof operations> = Pick<WorkspaceHandlers, K>;
