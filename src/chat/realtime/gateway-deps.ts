// What a node's realtime gateway needs from the platform: the chat listener's HTTP server, PostgreSQL, Redis and the
// presence and typing services. Its own file so the gateway's steps can name it without importing the gateway.
import type { Server } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../base/context.js';
import type { Clock } from '../../platform/clock.js';
import type { SqlPool } from '../../platform/db/sql.js';
import type { Logger } from '../../platform/logger.js';
import type { Redis } from '../../platform/redis.js';
import type { PresenceService } from '../presence/service.js';
import type { TypingService } from '../presence/typing.js';
import type { RealtimeOptions } from './options.js';

export interface GatewayDeps {
  server: Server;
  sql: SqlPool;
  redisUrl: string;
  /** Publishes the confirmations of account invalidations this node hears. */
  publisher: Redis;
  clock: Clock;
  log: Logger;
  options: RealtimeOptions;
  /** Typing notices sent over STOMP, as the REST twin sends them. */
  typing: TypingService;
  /** Presence entries of this node's sessions, kept in Redis. */
  presence: PresenceService;
  /** The chat listener's bearer authentication. */
  authenticate: (request: FastifyRequest) => Promise<Caller>;
}
