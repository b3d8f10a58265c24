// The chat operations as the generated OpenAPI document declares them: the authorization table must have a row
// for each, with the same method and path.
import { loadSpecification } from '../../src/platform/http/specification.js';

export interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
  /** True when the operation accepts an anonymous call (security [{}]). */
  public: boolean;
}

export interface ChatSpec {
  operations: Map<string, SpecOperation>;
  /** True once sendMessage takes threadRootId (threads branch). */
  sendTakesThreadRoot: boolean;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

export async function loadChatSpec(): Promise<ChatSpec> {
  const doc = (await loadSpecification('chat')) as {
    paths: Record<string, Record<string, { operationId?: string; security?: Array<Record<string, unknown>> }>>;
    security?: Array<Record<string, unknown>>;
    components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
  };
  const operations = new Map<string, SpecOperation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const security = op.security ?? doc.security ?? [];
      operations.set(op.operationId, {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        public: security.length === 0 || security.some((s) => Object.keys(s).length === 0),
      });
    }
  }
  const send = doc.components?.schemas?.SendMessageRequest;
  return { operations, sendTakesThreadRoot: send?.properties?.threadRootId !== undefined };
}

/** A path template with its parameter names blanked: /rooms/{id} and /rooms/{roomId} are the same route. */
export const routeShape = (template: string) => template.replace(/\{[^}]+\}/g, '{}');
