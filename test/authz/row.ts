// The shape of one row of the authorization table, and how a row turns into a concrete request.
import { defaultAllowed, defaultOutcome, PERSONAS, type Audience, type Outcome, type Persona } from './personas.js';
import type { World } from './world.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** What a persona sends: values for the path template's parameters, a query and a JSON body. */
export interface Request {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

export interface RowDef<S> {
  operationId: string;
  /** Distinguishes several rows of one operation (another scope, another room policy). */
  variant?: string;
  method: Method;
  /** The path template as the spec (or OPS.md, for operations not merged yet) writes it. */
  path: string;
  audience: Audience;
  /** Personas that get a 2xx; defaults by audience (see personas.ts). */
  allowed?: Persona[];
  /** Outcomes that differ from the defaults. */
  outcomes?: Partial<Record<Persona, Outcome>>;
  /** Data the row needs beyond the base world, made once per world. */
  setup?: (w: World) => Promise<S>;
  /** Runs before each persona's call (and before the fingerprint taken for it). */
  prepare?: (w: World, p: Persona, s: S) => Promise<void>;
  request: (w: World, p: Persona, s: S) => Request;
}

export interface Row {
  name: string;
  operationId: string;
  method: Method;
  path: string;
  audience: Audience;
  outcomes: Record<Persona, Outcome>;
  run(w: World): Promise<{ prepare(p: Persona): Promise<void>; request(p: Persona): Request }>;
}

export function row<S = undefined>(def: RowDef<S>): Row {
  const allowed = def.allowed ?? defaultAllowed(def.audience);
  const outcomes = Object.fromEntries(PERSONAS.map((p) => [p, def.outcomes?.[p] ?? defaultOutcome(def.audience, allowed, p)])) as Record<
    Persona,
    Outcome
  >;
  return {
    name: def.variant ? `${def.operationId} (${def.variant})` : def.operationId,
    operationId: def.operationId,
    method: def.method,
    path: def.path,
    audience: def.audience,
    outcomes,
    async run(w) {
      const s = (def.setup ? await def.setup(w) : undefined) as S;
      return {
        prepare: async (p) => def.prepare?.(w, p, s),
        request: (p) => def.request(w, p, s),
      };
    },
  };
}

/** The concrete path: the template with its parameters filled in, plus the query string. */
export function urlOf(template: string, req: Request): string {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = req.params?.[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return encodeURIComponent(value);
  });
  const query = req.query ? new URLSearchParams(req.query).toString() : '';
  return query ? `${path}?${query}` : path;
}
