import type { operations } from '../../../generated/types/partner.js';
import type { HandlerMap } from '../../platform/http/typed.js';
import type { PartnerContext } from './context.js';

export type PartnerOperations = operations;
export type PartnerHandlers = HandlerMap<operations, PartnerContext>;
/** The handlers of one feature folder. */
export type PartnerFeatureHandlers<K extends keyof operations> = Pick<PartnerHandlers, K>;
