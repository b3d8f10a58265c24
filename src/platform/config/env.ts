// Reading one environment variable of a kind (number in bounds, URL, list, boolean): a bad value is a ConfigError
// that names the variable.
export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function url(env: Env, name: string, schemes: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${schemes.join(' or ')}), got "${raw}"`);
  }
  if (!schemes.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(`${name} must use ${schemes.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

/** A comma-separated list of origins: scheme, host and optional port, nothing else (the Origin header's form). */
export function origins(env: Env, name: string): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((origin) => {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
        throw new ConfigError(`${name} must list origins such as https://console.example.com, got "${origin}"`);
      }
      return origin;
    });
}

export function urlList(env: Env, name: string, schemes: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((one) => url({ [name]: one }, name, schemes)!);
}

/** The one reading of a boolean setting: true/false, 1/0 or yes/no, in any case. */
export function parseBoolean(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1' || value === 'yes') return true;
  if (value === 'false' || value === '0' || value === 'no') return false;
  throw new ConfigError(`${name} must be true or false (or 1/0, yes/no), got "${raw}"`);
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return parseBoolean(name, raw);
}

export function flag(env: Env, name: string): boolean {
  return bool(env, name, false);
}
