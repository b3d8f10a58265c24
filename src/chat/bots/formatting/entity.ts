// A formatting entity as Telegram describes it: offsets and lengths count UTF-16 code units, as JS strings do.
import type { FormattingType } from '../../base/formatting.js';

export type { FormattingType } from '../../base/formatting.js';

export interface FormattingEntity {
  type: FormattingType;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  userId?: number;
}

export interface Formatted {
  text: string;
  entities: FormattingEntity[];
}

/** Bad markup; the message is the reason after Telegram's "can't parse entities: ". */
export class EntityParseError extends Error {}

/** Telegram reports positions in UTF-8 bytes of the input. */
export function byteOffset(source: string, index: number): number {
  return Buffer.byteLength(source.slice(0, index), 'utf8');
}
