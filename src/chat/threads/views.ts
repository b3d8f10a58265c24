// Thread rows and their wire shapes (ThreadSummary, ThreadInfo, MessagePreview, ThreadFollowResponse).
import { messageView, type MessageView } from '../base/message-views.js';
import type { ThreadFactsRow } from './thread-queries.js';

export interface MessagePreviewView {
  id: string;
  senderId: string;
  text: string | null;
  createdAt: string;
}

export interface ThreadInfoView {
  replyCount: number;
  lastReplyAt: string | null;
  lastReply: MessagePreviewView | null;
  unreadCount: number;
  following: boolean;
}

export interface ThreadSummaryView extends ThreadInfoView {
  root: MessageView;
  lastReplyAt: string;
}

export type FollowState = 'FOLLOWING' | 'UNFOLLOWED' | 'NONE';

export interface ThreadFollowView {
  rootId: string;
  roomId: string;
  state: 'FOLLOWING' | 'NOT_FOLLOWING';
  lastReadSeq: number;
  unreadCount: number;
}

function preview(row: ThreadFactsRow): MessagePreviewView | null {
  if (row.lr_id === null || row.lr_sender_id === null || row.lr_created_at === null) return null;
  return {
    id: row.lr_id,
    senderId: row.lr_sender_id,
    text: row.lr_recalled_at === null ? row.lr_text : null,
    createdAt: row.lr_created_at.toISOString(),
  };
}

export function threadInfoView(row: ThreadFactsRow): ThreadInfoView {
  return {
    replyCount: row.reply_count,
    lastReplyAt: row.last_reply_at.toISOString(),
    lastReply: preview(row),
    unreadCount: row.unread_count,
    following: row.following,
  };
}

export function threadSummaryView(row: ThreadFactsRow): ThreadSummaryView {
  return {
    root: messageView(row),
    ...threadInfoView(row),
    lastReplyAt: row.last_reply_at.toISOString(),
  };
}

export function threadFollowView(
  rootId: string,
  roomId: string,
  state: FollowState,
  lastReadSeq: number,
  unreadCount: number,
): ThreadFollowView {
  return { rootId, roomId, state: state === 'FOLLOWING' ? 'FOLLOWING' : 'NOT_FOLLOWING', lastReadSeq, unreadCount };
}
