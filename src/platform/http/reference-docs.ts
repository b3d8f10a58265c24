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
  // Trailing slashes cut by a loop: /\/+$/ backtracks quadratically on a long run of slashes followed by another character.
  let end = publicUrl.length;
  while (end > 0 && publicUrl[end - 1] === '/') end--;
  const url = publicUrl.slice(0, end) || '/';
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
  // In a scope of its own, so the language hook below touches only the reference's routes.
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => withPageLanguage(reply.getHeader('content-type'), payload));
    await scope.register(await loadScalar(), {
      routePrefix: '/docs',
      logLevel: 'warn',
      configuration: { ...(sources.length === 1 ? { url: sources[0]!.url } : { sources }), ...offlineReferenceOptions },
    });
  });
}

/**
 * Scalar's options for a deployment that may have no way out: nothing is fetched from or offered by a service
 * outside it, and one light theme whose text keeps at least 4.5:1 contrast (see readableColours).
 */
export const offlineReferenceOptions = {
  // Fonts would come from a CDN; the page must work offline and leak no visit.
  withDefaultFonts: false,
  telemetry: false,
  // The hosted request client, the assistant ("Ask AI"), MCP set-up and the developer tools toolbar ("Deploy",
  // "Generate SDK") all reach Scalar's services.
  hideClientButton: true,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  // One tested colour scheme: the dark one is not checked for contrast, so it is not offered.
  theme: 'default',
  forceDarkModeState: 'light',
  hideDarkModeToggle: true,
  customCss: readableColours(),
} as const;

/** The default light theme with its grey text, accent and method colours darkened to 4.5:1 on its backgrounds. */
function readableColours(): string {
  return `.light-mode {
  --scalar-color-2: #595959;
  --scalar-color-3: #595959;
  --scalar-color-accent: #0058a3;
  --scalar-color-green: #04704a;
  --scalar-color-red: #c40005;
  --scalar-color-yellow: #7a5c00;
  --scalar-color-blue: #005a96;
  --scalar-color-orange: #a83a00;
  --scalar-color-purple: #5203d1;
  --scalar-color-query: #00686c;
}`;
}

/** The page Scalar renders starts with a bare <html>; screen readers need its language. */
function withPageLanguage(contentType: unknown, payload: unknown): unknown {
  if (typeof payload !== 'string' || !String(contentType ?? '').startsWith('text/html')) return payload;
  return payload.replace(/<html>/, '<html lang="en">');
}
