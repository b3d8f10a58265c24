// The settings console: a static single-page app (console/, built by Vite into dist/console) served at /console/,
// plus /console/config.json telling the page where the partner and workspace listeners are.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export interface ConsoleEndpoints {
  /** Absolute URL, or a port the page combines with its own host. */
  partner: { url?: string; port?: number };
  workspace: { url?: string; port?: number };
}

/** dist/console, from src/ (tests run the sources) or dist/src/ (built). */
export function consoleRoot(): string | undefined {
  const base = fileURLToPath(new URL('../../../', import.meta.url));
  const dir = base.endsWith('/dist/') ? `${base}console/` : `${base}dist/console/`;
  return existsSync(`${dir}index.html`) ? dir : undefined;
}

export async function registerConsole(app: FastifyInstance, endpoints: () => ConsoleEndpoints, root = consoleRoot()): Promise<void> {
  app.get('/console', { logLevel: 'warn' }, async (_request, reply) => reply.redirect('/console/', 302));
  app.get('/console/config.json', { logLevel: 'warn' }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(endpoints()),
  );
  if (!root) {
    app.get('/console/*', async (_request, reply) =>
      reply.code(503).type('text/plain; charset=utf-8').send('The console is not built: run `make build` (or `npm run build:console`).\n'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/console/',
    decorateReply: false,
    logLevel: 'warn',
    // File names under assets/ carry a content hash; index.html must be revalidated to pick up a new build.
    setHeaders: (res, path) => {
      res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
