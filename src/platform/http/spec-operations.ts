// What a listener reads from its OpenAPI document besides the routes: each operation's security, the platform-admin
// and body-required operations, and the path templates that tell a missing resource (404) from a missing method (405).

export function securityByOperation(spec: Record<string, unknown>): Map<string, Array<Record<string, string[]>>> {
  const result = new Map<string, Array<Record<string, string[]>>>();
  const globalSecurity = (spec.security as Array<Record<string, string[]>>) ?? [];
  const paths = (spec.paths ?? {}) as Record<string, Record<string, { operationId?: string; security?: Array<Record<string, string[]>> }>>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.operationId) {
        const security = (op.security ?? globalSecurity).filter((s) => Object.keys(s).length > 0);
        // An empty requirement object in the list means the operation may also be called anonymously.
        const anonymousAllowed = (op.security ?? globalSecurity).some((s) => Object.keys(s).length === 0);
        result.set(op.operationId, anonymousAllowed ? [] : security);
      }
    }
  }
  return result;
}

type PathItem = Record<string, { operationId?: string; requestBody?: { required?: boolean } }>;

/** Operations whose spec carries `x-platform-admin: true`. */
export function platformAdminOperations(spec: Record<string, unknown>): Set<string> {
  const result = new Set<string>();
  for (const item of Object.values(
    (spec.paths ?? {}) as Record<string, Record<string, { operationId?: string; 'x-platform-admin'?: unknown }>>,
  )) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.operationId && op['x-platform-admin'] === true) result.add(op.operationId);
    }
  }
  return result;
}

/** Operations whose spec marks the request body as required. */
export function operationsRequiringBody(spec: Record<string, unknown>): Set<string> {
  const result = new Set<string>();
  for (const item of Object.values((spec.paths ?? {}) as Record<string, PathItem>)) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.operationId && op.requestBody?.required === true) result.add(op.operationId);
    }
  }
  return result;
}

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface PathTemplate {
  segments: Array<string | null>; // null: a {parameter}
  methods: string[];
}

/**
 * The spec's paths, to tell "no such resource" (404) from "no such method on this resource" (405 with Allow).
 * A concrete path belongs to the most specific matching template: a literal segment beats a parameter at the
 * first place they differ, as in Fastify's router (so /api/v1/rooms/self is the self-room resource, not a room id).
 */
export function pathTemplates(spec: Record<string, unknown>): PathTemplate[] {
  return Object.entries((spec.paths ?? {}) as Record<string, PathItem>).map(([template, item]) => {
    const methods = Object.keys(item)
      .filter((m) => httpMethods.includes(m))
      .map((m) => m.toUpperCase());
    // Fastify answers HEAD on every GET route.
    if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
    return { segments: template.split('/').map((s) => (/^\{[^}]+\}$/.test(s) ? null : s)), methods };
  });
}

/** Liveness and readiness: every listener answers them, outside any gate, declared in its spec or not. */
export const healthPaths = ['/healthz', '/readyz'];

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}

export function resourceOf(templates: PathTemplate[], url: string): PathTemplate | undefined {
  const segments = (url.split('?')[0] ?? '').split('/');
  let best: PathTemplate | undefined;
  for (const t of templates) {
    if (t.segments.length !== segments.length) continue;
    if (!t.segments.every((s, i) => (s === null ? segments[i] !== '' : s === segments[i]))) continue;
    if (!best) best = t;
    else {
      const i = t.segments.findIndex((s, k) => (s === null) !== (best!.segments[k] === null));
      if (i >= 0 && t.segments[i] !== null) best = t;
    }
  }
  return best;
}
