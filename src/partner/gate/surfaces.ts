// The allowed-surface table: the only path prefixes an API key may enter. Anything else is an internal surface.

export const keySurfaces = [
  '/api/v1/partner/crm',
  '/api/v1/inbox',
  '/api/v1/webhooks',
  '/api/v1/webhook-deliveries',
  '/api/v1/api-keys',
  '/api/v1/reports',
  '/api/v1/storage',
];

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}

/** True when the path is one of the prefixes or below it (a prefix matches whole segments only). */
export function isKeySurface(url: string): boolean {
  const path = pathOf(url);
  return keySurfaces.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
