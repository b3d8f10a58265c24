// When each route's request validators and response serializers are compiled. Fastify compiles all of them as a
// listener starts: about 2 s of CPU for the four documents, spent before the first request. SCHEMA_COMPILATION
// `first-use` compiles each one on its route's first request instead, for processes that start many listeners and
// call few of their routes (the test suite starts hundreds); such a route's first call is slower by its compile time.
// The setting is per process, like the dependency time-outs, and is read as each listener is built.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { SchemaCompilation } from '../config/types.js';

let current: SchemaCompilation = 'startup';

export function installSchemaCompilation(mode: SchemaCompilation): void {
  current = mode;
}

export function compilesOnFirstUse(): boolean {
  return current === 'first-use';
}

/**
 * A function built by `build` on its first call. `errors` reads the built function's, where Ajv's validators leave
 * theirs for Fastify to read.
 */
export function builtOnFirstUse<F extends (...args: never[]) => unknown>(build: () => F): F {
  let built: F | undefined;
  const run = (...args: Parameters<F>) => (built ??= build())(...args);
  Object.defineProperty(run, 'errors', { get: () => (built as { errors?: unknown } | undefined)?.errors });
  return run as unknown as F;
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's own response serializers (fast-json-stringify), each compiled on its route's first response. */
export function serializersOnFirstUse(): SerializerFactory {
  const compilerFor = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = compilerFor(externalSchemas, options);
    return (route) => builtOnFirstUse(() => compile(route));
  };
}
