// The bot a Bot API request acts as (found by its token before anything else runs) and the request's own state.
import type { FastifyRequest } from 'fastify';
import { botApiErrors } from './errors.js';

export interface BotPrincipal {
  id: string;
  accountId: string;
  /** The bot's integer id (its account's): getMe's id and the id part of its token. */
  apiId: number;
  username: string;
  displayName: string;
  moduleCode: string;
  customerAccountId: string;
  /** The hash the request's token has; a regenerated or deleted bot no longer matches it. */
  tokenHash: Buffer;
}

export interface BotContext {
  requestId: string;
  bot: BotPrincipal | null;
  /** File parts of a multipart body (sendDocument, sendPhoto), by field name. */
  files: Map<string, File>;
  /** Calls listener when the client goes away before the answer; returns the unsubscribe. */
  onDisconnect(listener: () => void): () => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    bot?: BotPrincipal;
  }
}

export function botContext(request: FastifyRequest): BotContext {
  return {
    requestId: request.id,
    bot: request.bot ?? null,
    files: request.botFiles ?? new Map(),
    onDisconnect(listener) {
      const socket = request.raw.socket;
      socket.once('close', listener);
      return () => socket.off('close', listener);
    },
  };
}

export function botOf(ctx: BotContext): BotPrincipal {
  if (!ctx.bot) throw botApiErrors.unauthorized();
  return ctx.bot;
}
