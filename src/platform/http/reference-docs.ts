// The interactive reference of a listener's OpenAPI documents: /openapi.json is the raw document the listener
// serves (what generated/openapi holds, its `servers` set to the listener's public URL when one is configured),
// /docs renders it with Scalar, whose script is served from the package itself (no CDN). Both are public: they pass
// no gate and need no credential.
import type { FastifyInstance, FastifyPluginCallback } from 'fastify';

// Loaded by a computed name: the package's type declarations pull browser typings into the server's program (and
// then Buffer is no longer a fetch body there). Its options are checked by the tests instead.
const scalarPackage: string = '@scalar/fastify-api-reference';
const loadScalar = async () => ((await import(scalarPackage)) as { default: FastifyPluginCallback<Record<string, unknown>> }).default;

export interface ExtraDocument {
  /** Served at /openapi/<slug>.json, e.g. "bot". */
  slug: string;
  title: string;
  specification: Record<string, unknown>;
}

/** Paths that are not operations of the document: probes, the reference and the console. */
export function isPublicPath(path: string): boolean {
  return (
    path === '/healthz' ||
    path === '/readyz' ||
    path === '/openapi.json' ||
    path === '/docs' ||
    path.startsWith('/docs/') ||
    path.startsWith('/openapi/') ||
    path === '/console' ||
    path.startsWith('/console/')
  );
}

function titleOf(specification: Record<string, unknown>, fallback: string): string {
  const info = specification.info as { title?: unknown } | undefined;
  return typeof info?.title === 'string' ? info.title : fallback;
}

/**
 * The document as served: its own `servers` (relative, "/") unless the listener has a public URL, which then is the
 * one server. /docs reads the served document, so its requests go where the document says.
 */
export function servedDocument(specification: Record<string, unknown>, publicUrl: string | undefined): string {
  if (publicUrl === undefined) return JSON.stringify(specification);
  const url = publicUrl.replace(/\/+$/, '') || '/';
  return JSON.stringify({ ...specification, servers: [{ url, description: 'This listener' }] });
}

export async function registerReferenceDocs(
  app: FastifyInstance,
  name: string,
  specification: Record<string, unknown>,
  extra: ExtraDocument[] = [],
  publicUrl?: string,
): Promise<void> {
  const documents = [
    { url: '/openapi.json', title: titleOf(specification, name), body: servedDocument(specification, publicUrl) },
    ...extra.map((d) => ({ url: `/openapi/${d.slug}.json`, title: d.title, body: servedDocument(d.specification, publicUrl) })),
  ];
  for (const doc of documents) {
    app.get(doc.url, { logLevel: 'warn' }, async (_request, reply) => reply.type('application/json; charset=utf-8').send(doc.body));
  }
  const sources = documents.map((d, i) => ({ title: d.title, url: d.url, slug: i === 0 ? name : extra[i - 1]!.slug }));
  await app.register(await loadScalar(), {
    routePrefix: '/docs',
    logLevel: 'warn',
    configuration: {
      ...(sources.length === 1 ? { url: sources[0]!.url } : { sources }),
      // Fonts would come from a CDN; the page must work offline and leak no visit.
      withDefaultFonts: false,
      hideClientButton: true,
      telemetry: false,
    },
  });
}
