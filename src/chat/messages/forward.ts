// Forwarding: copies of messages of a room the caller can read, sent into the target room by the caller. A copy
// carries the original's files: members of the target room may then download them.
import { inTransaction } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { roleIn, roomNotFound } from '../base/membership.js';
import { messageErrors } from './access.js';
import { messageView, type MessageView } from '../base/message-views.js';
import { bumpForForward, copyMessages, forwardSources } from './forward-queries.js';

export interface ForwardInput {
  fromRoomId: string;
  messageIds: string[];
}

export class ForwardService {
  constructor(private readonly deps: ChatDeps) {}

  /** All or nothing: a source room the caller cannot read, or any id that cannot be forwarded, copies nothing. */
  async forward(caller: Caller, roomId: string, input: ForwardInput): Promise<MessageView[]> {
    // uuids arrive lower-cased (the request pipeline's one uuid rule), so the schema's uniqueItems sees repeats.
    const { fromRoomId, messageIds: ids } = input;
    const now = this.deps.clock.now();
    const copied = await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      try {
        await roleIn(client, fromRoomId, caller.accountId);
      } catch {
        throw messageErrors.sourceRoomNotFound();
      }
      // The target room row is locked before the source messages, the order of every send and recall.
      const lastSeq = await bumpForForward(client, roomId, caller.accountId, ids.length, now);
      if (lastSeq === undefined) throw roomNotFound();
      const sources = await forwardSources(client, fromRoomId, ids);
      const found = new Map(sources.map((r) => [r.id, r.recalled]));
      const missing = ids.flatMap((id, i) => (found.has(id) ? [] : [i]));
      if (missing.length > 0) throw messageErrors.forwardNotFound(missing);
      const recalled = ids.flatMap((id, i) => (found.get(id) ? [i] : []));
      if (recalled.length > 0) throw messageErrors.forwardRecalled(recalled);
      const copies = await copyMessages(client, {
        roomId,
        firstSeq: lastSeq - ids.length + 1,
        senderId: caller.accountId,
        at: now,
        fromRoomId,
        sourceIds: ids,
        newIds: ids.map(() => newId()),
      });
      if (copies.length !== ids.length) throw new Error('forward copied fewer messages than it checked');
      return copies;
    });
    return copied.map(messageView);
  }
}
