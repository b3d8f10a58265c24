// What both clients share: the core's common options and the openapi-fetch client underneath, typed by this schema.
import { underlying as coreUnderlying, type CommonClientOptions, type Underlying as CoreUnderlying } from '@chat-platform/sdk-core';
import type { Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { CommonClientOptions } from '@chat-platform/sdk-core';

export type Underlying = CoreUnderlying<paths>;

export function underlying(options: CommonClientOptions, auth: Middleware): Underlying {
  return coreUnderlying<paths>(options, auth);
}
