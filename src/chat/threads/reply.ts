// Thread replies, sent through POST /rooms/{roomId}/messages with threadRootId. A top-level send stays one
// statement (send-queries.ts); a reply takes one transaction of two statements, because it must undo the room's
// sequence bump when its root turns out to be missing or recalled.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { firstSend } from '../base/retried-send.js';
import { messageView, type MessageRow, type MessageView } from '../base/message-views.js';
import { roomNotFound } from '../base/membership.js';
import { bumpForReply, insertReply } from './reply-queries.js';

export interface ReplyInput {
  text: string;
  clientMessageId?: string;
  threadRootId: string;
}

/** Why a reply stored nothing; thrown inside the transaction so that it rolls back. */
class NoReply extends Error {
  constructor(readonly reason: 'not_member' | 'retry' | 'no_root' | 'recalled') {
    super(reason);
  }
}

/** `decorate` completes the stored reply inside its transaction (a send with attachments claims its uploads). */
export async function sendReply(
  deps: ChatDeps,
  caller: Caller,
  roomId: string,
  input: ReplyInput,
  decorate?: (client: SqlClient, row: MessageRow) => Promise<MessageRow>,
): Promise<MessageView> {
  const id = newId();
  const now = deps.clock.now();
  const cmid = input.clientMessageId ?? null;
  let row: MessageRow;
  try {
    row = await inTransaction(deps.sql, async (client) => {
      const seq = await bumpForReply(client, { room: roomId, sender: caller.accountId, time: now, clientMessageId: cmid });
      if (seq === undefined) throw new NoReply(cmid === null ? 'not_member' : 'retry');
      const reply = await insertReply(client, {
        id,
        room: roomId,
        seq,
        sender: caller.accountId,
        text: input.text,
        clientMessageId: cmid,
        time: now,
        named: input.threadRootId,
      });
      if (reply.id !== null) {
        const stored = reply as unknown as MessageRow; // a left-joined message row: its columns are there when id is
        return decorate ? decorate(client, stored) : stored;
      }
      if (reply.named_root === null) throw new NoReply('no_root');
      if (reply.root_id === null) throw new NoReply('recalled');
      throw new NoReply('retry'); // a concurrent retry won the insert
    });
  } catch (err) {
    if (!(err instanceof NoReply)) throw err;
    switch (err.reason) {
      case 'not_member':
        throw roomNotFound();
      case 'no_root':
        throw chatErrors.notFound('Message', 'message_not_found');
      case 'recalled':
        throw chatErrors.conflict('message_recalled', 'The thread root was recalled; it takes no more replies.');
      case 'retry':
        return firstSend(deps, caller, roomId, cmid!);
    }
  }
  return messageView(row);
}
