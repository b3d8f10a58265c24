// What the error-catalogue tests compare: the codes an interface's documents publish (the spec enum, the doc page's
// error tables) and the codes its sources produce (literal codes at throw sites, and the shared HTTP layer's and
// bearer authentication's errors as the interface's renderer puts them on the wire).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../src/platform/http/app-error.js';
import type { ErrorRendering, ErrorRequest } from '../../src/platform/http/server.js';

const root = new URL('../../', import.meta.url).pathname;

export function read(path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

/** The values of an enum schema of a generated OpenAPI document, e.g. specEnum('chat', 'Envelope.ChatErrorCode'). */
export function specEnum(service: string, schema: string): string[] {
  const doc = JSON.parse(read(`generated/openapi/${service}.json`));
  return doc.components.schemas[schema]?.enum ?? [];
}

/**
 * The codes of a doc page's error tables: every table whose first two header cells are a status column ('status' or
 * 'HTTP') and `column`; from that column, each backticked snake_case word outside parentheses (those hold locations
 * and details, e.g. "`validation_failed` (location `body.name`)").
 */
export function documentedCodes(path: string, column: string): string[] {
  const codes = new Set<string>();
  let inTable = false;
  for (const line of read(path).split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    if (/^(status|HTTP)$/.test(cells[0] ?? '') && cells[1] === column) {
      inTable = true;
      continue;
    }
    if (!inTable || /^-+$/.test(cells[0] ?? '')) continue;
    const cell = (cells[1] ?? '').replace(/\([^)]*\)/g, '');
    for (const [, code] of cell.matchAll(/`([a-z][a-z0-9_]*)`/g)) codes.add(code!);
  }
  return [...codes];
}

function sourceFiles(dir: string, skip: string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (skip.some((s) => path.startsWith(s))) continue;
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(path, skip));
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** Each capture of `pattern` (its first group) in the non-test TypeScript files under `dirs`. */
export function literalCodes(dirs: string[], pattern: RegExp, skip: string[] = []): string[] {
  const codes = new Set<string>();
  for (const file of dirs.flatMap((d) => sourceFiles(d, skip))) {
    for (const m of read(file).matchAll(pattern)) codes.add(m[1]!);
  }
  return [...codes];
}

/** A status and code written as `(<status>, '<code>'` after a call of `callee` in the file. */
function statusCodePairs(path: string, callee: string): Array<{ status: string; code: string }> {
  const pattern = new RegExp(`${callee}\\(\\s*([\\w.]+),\\s*'([a-z][a-z0-9_]*)'`, 'g');
  return [...read(path).matchAll(pattern)].map((m) => ({ status: m[1]!, code: m[2]! }));
}

/** The errors the shared HTTP layer makes (framework-errors.ts, unavailable.ts) and bearer authentication makes. */
export function sharedErrors(): { framework: AppError[]; bearer: AppError[] } {
  const pairs = [
    ...statusCodePairs('src/platform/http/framework-errors.ts', 'new AppError'),
    ...statusCodePairs('src/platform/http/unavailable.ts', 'new AppError'),
  ];
  // A status taken from the thrown error (any 4xx Fastify raises): tried with several such statuses.
  const framework = pairs.flatMap(({ status, code }) =>
    (/^\d+$/.test(status) ? [Number(status)] : [406, 411, 416, 422]).map((s) => new AppError(s, code, 'm')),
  );
  const bearer = statusCodePairs('src/core/auth/errors.ts', 'bearerError').map(
    ({ status, code }) => new AppError(Number(status), code, 'm'),
  );
  return { framework, bearer };
}

/** The code each error carries on the wire once `render` has put it in the interface's envelope. */
export function renderedCodes(
  errors: AppError[],
  render: (e: AppError, r: ErrorRequest) => ErrorRendering,
  codeOf: (body: any) => unknown,
): string[] {
  return [...new Set(errors.map((e) => String(codeOf(render(e, { id: 'r' }).body))))];
}

export const sorted = (codes: Iterable<string>) => [...new Set(codes)].sort();
