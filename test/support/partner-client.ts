// A small API-key client for tests of the partner inbox surfaces: JSON in and out, a fresh Idempotency-Key on
// every write unless one is given.
import { randomUUID } from 'node:crypto';
import { call } from './platform.js';

export type PartnerResult = Awaited<ReturnType<typeof call>>;

export interface PartnerKeyClient {
  get(path: string): Promise<PartnerResult>;
  post(path: string, body: unknown, idempotencyKey?: string): Promise<PartnerResult>;
  patch(path: string, body: unknown, idempotencyKey?: string): Promise<PartnerResult>;
  delete(path: string, idempotencyKey?: string): Promise<PartnerResult>;
}

export function partnerKeyClient(base: string, key: string): PartnerKeyClient {
  const write = (idem?: string) => ({ 'x-api-key': key, 'idempotency-key': idem ?? randomUUID() });
  return {
    get: (path) => call(base, 'GET', path, { headers: { 'x-api-key': key } }),
    post: (path, body, idem) => call(base, 'POST', path, { headers: write(idem), body }),
    patch: (path, body, idem) => call(base, 'PATCH', path, { headers: write(idem), body }),
    delete: (path, idem) => call(base, 'DELETE', path, { headers: write(idem) }),
  };
}

export function expectStatus(res: PartnerResult, status: number): void {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
}
