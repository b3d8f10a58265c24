// Uploads: their size and media types, how long a session lives, and where the files are kept.
import { bool, ConfigError, int, url, type Env } from './env.js';
import type { MediaStoreConfig } from './types.js';

// Kinds people send in a work chat; image/*, audio/* and video/* are served as downloads (never rendered inline).
const defaultUploadTypes = [
  'image/*',
  'audio/*',
  'video/*',
  'text/plain',
  'text/csv',
  'application/pdf',
  'application/zip',
  'application/json',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
];
const mediaTypeEntry = /^([a-z0-9][a-z0-9!#$&^_.+-]{0,126})\/([a-z0-9][a-z0-9!#$&^_.+-]{0,126}|\*)$/;

function uploadTypes(env: Env): string[] {
  const raw = env.UPLOAD_ALLOWED_TYPES;
  if (raw === undefined || raw.trim() === '') return defaultUploadTypes;
  const entries = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0) throw new ConfigError('UPLOAD_ALLOWED_TYPES must list at least one media type');
  for (const entry of entries) {
    if (entry !== '*/*' && !mediaTypeEntry.test(entry)) {
      throw new ConfigError(`UPLOAD_ALLOWED_TYPES entries must be type/subtype, type/* or */*, got "${entry}"`);
    }
  }
  return entries;
}

function mediaStore(env: Env): MediaStoreConfig {
  const kind = env.MEDIA_STORE ?? 'file';
  if (kind === 'file' || kind === '') return { kind: 'file' };
  if (kind !== 's3') throw new ConfigError(`MEDIA_STORE must be file or s3, got "${kind}"`);
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new ConfigError('MEDIA_STORE=s3 needs S3_BUCKET');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`S3_BUCKET is not a valid bucket name: "${bucket}"`);
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all');
  }
  return {
    kind: 's3',
    bucket,
    region: env.S3_REGION || 'us-east-1',
    endpoint: url(env, 'S3_ENDPOINT', ['http', 'https']),
    accessKeyId,
    secretAccessKey,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
  };
}

function publicUrl(env: Env, name: string): string | undefined {
  const raw = url(env, name, ['http', 'https']);
  if (raw === undefined) return undefined;
  const parsed = new URL(raw);
  if (parsed.search || parsed.hash) throw new ConfigError(`${name} must be a base URL without query or fragment, got "${raw}"`);
  return withoutTrailingSlashes(raw);
}

/** "a//" → "a", by a scan from the end (the regular expression /\/+$/ backtracks quadratically on "////…x"). */
function withoutTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2f) end--;
  return s.slice(0, end);
}

/** Uploads and where their files are kept. */
export function mediaSettings(env: Env) {
  return {
    uploadMaxBytes: int(env, 'UPLOAD_MAX_BYTES', 100 * 1024 * 1024, 1, 1024 ** 4),
    uploadAllowedTypes: uploadTypes(env),
    uploadSessionTtlSeconds: int(env, 'UPLOAD_SESSION_TTL_SECONDS', 86_400, 60, 2_592_000),
    uploadCleanupIntervalMs: int(env, 'UPLOAD_CLEANUP_INTERVAL_MS', 600_000, 1_000, 86_400_000),
    media: mediaStore(env),
    mediaPublicUrl: publicUrl(env, 'MEDIA_PUBLIC_URL'),
  };
}
