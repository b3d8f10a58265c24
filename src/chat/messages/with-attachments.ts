// A send that carries files: the fast path's statement (or a thread reply's) and the claim of the uploads commit
// together, so a message never names an upload another message took, and a refused upload sends nothing.
import { claimUploads } from '../media/attachments.js';
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { sendReply } from '../threads/reply.js';
import { sendInTransaction, type SendInput } from './send-queries.js';
import { setAttachments } from './queries.js';
import { firstSend } from '../base/retried-send.js';
import { messageView, type MessageRow, type MessageView } from '../base/message-views.js';
import { roomNotFound } from '../base/membership.js';
import { recordMentions } from '../mentions/record.js';

export interface AttachmentSendInput extends SendInput {
  attachments: Array<{ uploadId: string }>;
}

/** Why the statement stored no message; thrown inside the transaction so that it rolls back. */
class NotStored extends Error {}

export async function sendWithAttachments(
  deps: ChatDeps,
  caller: Caller,
  roomId: string,
  input: AttachmentSendInput,
): Promise<MessageView> {
  const uploadIds = input.attachments.map((a) => a.uploadId);
  const now = deps.clock.now();
  const attach = async (client: SqlClient, row: MessageRow): Promise<MessageRow> => {
    const stored = await claimUploads(client, caller.accountId, row.id, uploadIds, now);
    const updated = await setAttachments(client, row.id, stored);
    return { ...updated, entities: await recordMentions(client, row, input.text) };
  };
  if (input.threadRootId !== undefined) {
    return sendReply(
      deps,
      caller,
      roomId,
      { text: input.text, clientMessageId: input.clientMessageId, threadRootId: input.threadRootId },
      attach,
    );
  }
  const cmid = input.clientMessageId ?? null;
  let row: MessageRow;
  try {
    row = await inTransaction(deps.sql, async (client) => {
      const sent = await sendInTransaction(client, {
        id: newId(),
        room: roomId,
        sender: caller.accountId,
        text: input.text,
        time: now,
        clientMessageId: cmid ?? undefined,
      });
      // Not a member, or a retry of a send that already stored its message (with its files).
      if (!sent || sent.id === null) throw new NotStored();
      return attach(client, sent as unknown as MessageRow);
    });
  } catch (err) {
    if (!(err instanceof NotStored)) throw err;
    if (cmid === null) throw roomNotFound();
    return firstSend(deps, caller, roomId, cmid);
  }
  return messageView(row);
}
