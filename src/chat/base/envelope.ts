// Helpers that wrap payloads in the chat ApiResponse envelope with the handler's typed status.
import type { ChatContext } from './context.js';

export function ok<T>(ctx: ChatContext, data: T) {
  return { status: 200 as const, body: { data, meta: { requestId: ctx.requestId } } };
}

export function created<T>(ctx: ChatContext, data: T, location: string) {
  return { status: 201 as const, body: { data, meta: { requestId: ctx.requestId } }, location };
}

export function okList<T>(
  ctx: ChatContext,
  data: T[],
  page: { hasMore: boolean; nextCursor: string | null } = { hasMore: false, nextCursor: null },
) {
  return { status: 200 as const, body: { data, meta: { requestId: ctx.requestId, hasMore: page.hasMore, nextCursor: page.nextCursor } } };
}
