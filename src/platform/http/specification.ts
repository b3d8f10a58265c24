import { readFile } from 'node:fs/promises';

/** Reads generated/openapi/<service>.json, from src/ (tests) or dist/src/ (built). */
export async function loadSpecification(service: string): Promise<Record<string, unknown>> {
  for (const rel of [`../../../generated/openapi/${service}.json`, `../../../../generated/openapi/${service}.json`]) {
    try {
      return JSON.parse(await readFile(new URL(rel, import.meta.url), 'utf8')) as Record<string, unknown>;
    } catch {
      /* try the next location */
    }
  }
  throw new Error(`generated/openapi/${service}.json not found; run \`make generate\``);
}

/** generated/openapi/<service>.json when it exists (a document another issue adds), else undefined. */
export async function loadOptionalSpecification(service: string): Promise<Record<string, unknown> | undefined> {
  try {
    return await loadSpecification(service);
  } catch {
    return undefined;
  }
}
