import type { operations } from '../../../generated/types/chat.js';
import type { HandlerMap } from '../../platform/http/typed.js';
import type { ChatContext } from './context.js';

export type ChatOperations = operations;
export type ChatHandlers = HandlerMap<operations, ChatContext>;
/** The handlers of one feature folder. */
export type ChatFeatureHandlers<K extends keyof operations> = Pick<ChatHandlers, K>;
