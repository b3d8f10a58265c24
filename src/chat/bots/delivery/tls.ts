// The TLS trust of a bot webhook delivery: the system's roots, plus the shared CA file (WEBHOOK_CA_FILE, which also
// covers workspace webhooks) and the certificate the bot uploaded with setWebhook (Telegram's `certificate`: the
// receiver's self-signed certificate or its private CA). Secure contexts are built once per distinct trust set and
// reused, since parsing the root store costs milliseconds.
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

const maxCached = 256;
const contexts = new Map<string, SecureContext>();

/** The PEM of the shared CA file, read once at start; a file without a certificate stops the start. */
export function readSharedCa(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const pem = readFileSync(path, 'utf8');
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`WEBHOOK_CA_FILE ${path} holds no PEM certificate`);
  return pem;
}

/** Why an uploaded certificate cannot be used, or null when it is one PEM X.509 certificate. */
export function certificateProblem(pem: string): string | null {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) return 'the certificate must be a PEM X.509 certificate';
  try {
    new X509Certificate(pem);
    return null;
  } catch {
    return 'the certificate could not be read as a PEM X.509 certificate';
  }
}

/** The secure context for a delivery, or undefined when only the system's roots are trusted. */
export function webhookSecureContext(sharedCaPem: string | undefined, uploadedPem: string | null): SecureContext | undefined {
  const extra = [sharedCaPem, uploadedPem ?? undefined].filter((p): p is string => p !== undefined);
  if (extra.length === 0) return undefined;
  const key = createHash('sha256').update(extra.join('\n')).digest('base64');
  let context = contexts.get(key);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, ...extra] });
    if (contexts.size >= maxCached) contexts.delete(contexts.keys().next().value!);
    contexts.set(key, context);
  }
  return context;
}
