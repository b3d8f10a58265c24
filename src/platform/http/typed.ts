// Handler types derived from openapi-typescript's `operations`, so that an operation without a handler,
// or a handler answering a status or body the spec does not declare, fails the typecheck.
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';

type SuccessStatus = 200 | 201 | 202 | 204;
// Raw bytes in (application/octet-stream bodies arrive as a Buffer) and out (a file of any type, streamed).
type JsonBody<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: { 'application/octet-stream': unknown } }
    ? Buffer
    : R extends { content: { '*/*': unknown } }
      ? Readable
      : undefined;
type Responses<Op> = Op extends { responses: infer R } ? R : never;

/** What a handler returns: one of the operation's success statuses with its body. */
export type Result<Op> = {
  [S in keyof Responses<Op> & SuccessStatus]: {
    status: S;
    body: JsonBody<Responses<Op>[S]>;
    location?: string;
    headers?: Record<string, string>;
  };
}[keyof Responses<Op> & SuccessStatus];

type Param<Op, K extends string> = Op extends { parameters: infer P }
  ? K extends keyof P
    ? [NonNullable<P[K]>] extends [never]
      ? undefined
      : NonNullable<P[K]>
    : undefined
  : undefined;

type Body<Op> = Op extends { requestBody?: infer B }
  ? [NonNullable<B>] extends [never]
    ? undefined
    : JsonBody<NonNullable<B>>
  : undefined;

/** Validated request parts: Fastify has already checked them against the operation's schema. */
export interface Input<Op> {
  params: Param<Op, 'path'>;
  query: Param<Op, 'query'>;
  body: Body<Op>;
}

export type Handler<Op, Ctx> = (input: Input<Op>, ctx: Ctx) => Promise<Result<Op>>;

/** One handler per operationId of a generated `operations` interface. */
export type HandlerMap<Ops, Ctx> = { [K in keyof Ops]: Handler<Ops[K], Ctx> };

export type ContextFactory<Ctx> = (request: FastifyRequest) => Ctx;
