// The body of both clients: one method per operation of a route table, call/callWithResponse by operationId, and
// pages/paginate over its list operations.
import type { Client } from 'openapi-fetch';
import type { Underlying } from './common.js';
import { repeatableOperations, type OperationId, type Route } from './operations.js';
import { items, pages, type PageEnvelope } from './pagination.js';
import type { paths } from './schema.js';
import { send, type LooseInput, type ResultWithResponse } from '@chat-platform/sdk-core';
import { toWorkspaceApiError } from './errors.js';
import type { CallOptions } from './types.js';

export interface LooseClient {
  raw: Client<paths>;
  call(operation: string, input?: LooseInput, options?: CallOptions): Promise<unknown>;
  callWithResponse(operation: string, input?: LooseInput, options?: CallOptions): Promise<ResultWithResponse<unknown>>;
  pages(operation: string, input?: LooseInput, options?: CallOptions): AsyncGenerator<PageEnvelope, void, undefined>;
  paginate(operation: string, input?: LooseInput, options?: CallOptions): AsyncGenerator<unknown, void, undefined>;
  [operation: string]: unknown;
}

export function buildClient(name: string, routes: Readonly<Record<string, Route>>, { raw, request, policy }: Underlying): LooseClient {
  async function callWithResponse(operation: string, input?: LooseInput, options: CallOptions = {}): Promise<ResultWithResponse<unknown>> {
    const route = Object.hasOwn(routes, operation) ? routes[operation] : undefined;
    if (!route) throw new TypeError(`${operation} is not an operation of the ${name}`);
    return send(request, policy, toWorkspaceApiError, route, input, {
      signal: options.signal,
      headers: options.headers,
      maxRetries: options.maxRetries,
      repeatable: repeatableOperations.has(operation as OperationId),
    });
  }
  const call = async (operation: string, input?: LooseInput, options?: CallOptions) =>
    (await callWithResponse(operation, input, options)).data;
  const pagesOf = (operation: string, input: LooseInput = {}, options?: CallOptions) =>
    pages(
      operation,
      (cursor) => call(operation, { ...input, query: { ...input.query, cursor } }, options) as Promise<PageEnvelope>,
      input.query?.cursor as string | undefined,
    );
  const methods = Object.fromEntries(
    Object.keys(routes).map((id) => [id, (input?: LooseInput, options?: CallOptions) => call(id, input, options)]),
  );
  return {
    ...methods,
    raw,
    call,
    callWithResponse,
    pages: pagesOf,
    paginate: (operation: string, input?: LooseInput, options?: CallOptions) => items(pagesOf(operation, input, options)),
  };
}
