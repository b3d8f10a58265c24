// An update made from a drained outbox event, before it is numbered and stored: ord is the event's place in the
// batch, so a bot's updates follow the outbox order whichever producer made them.
import type { UpdateKind } from '../rows.js';

export interface NewUpdate {
  ord: number;
  botId: string;
  kind: UpdateKind;
  body: Record<string, unknown>;
}

/** An event of the batch with its place in it. */
export interface PlacedEvent {
  ord: number;
  topic: string;
  payload: Record<string, unknown>;
}

/** Events written once per audience (the room's, the leaver's) reach bots once: from the room's copy. */
export const forTheRoom = (payload: Record<string, unknown>) => (payload.audience as { kind?: string } | undefined)?.kind === 'room';
