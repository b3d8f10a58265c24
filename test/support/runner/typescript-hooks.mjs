// Module hooks for the test processes (test/support/runner/): TypeScript sources load as ES modules compiled by SWC
// with the options the build uses, `./x.js` specifiers of a TypeScript file resolve to `./x.ts` as tsc resolves them,
// and the SDKs' shared core resolves to its sources, so the tests need no build of it.
import { transformSync } from '@swc/core';
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

const sdkCore = new URL('../../../sdk/core/src/index.ts', import.meta.url).href;
const root = fileURLToPath(new URL('../../../', import.meta.url));
// Source maps for the tests and their helpers only, so that a failure points at the test's own line: mapping every
// stack trace the platform's code creates (its errors, its clients' errors) through maps was slow enough to delay
// its work under load.
const mapped = (filename) => !filename.startsWith(`${root}src/`);

function resolve(specifier, context, nextResolve) {
  if (specifier === '@chat-platform/sdk-core') return { url: sdkCore, shortCircuit: true };
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const typescript = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
    if (existsSync(typescript)) return { url: typescript.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: mapped(filename) ? 'inline' : false,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
    module: { type: 'es6' },
  });
  return { format: 'module', source: code, shortCircuit: true };
}

registerHooks({ resolve, load });
