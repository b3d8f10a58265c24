// A tiny certificate authority made with node:crypto alone: P-256 keys and X.509 v3 certificates written as DER by
// hand, for HTTPS receivers of webhook tests and benchmarks (WEBHOOK_CA_FILE points at the CA's PEM).
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.from([unused]), b);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 + n, inner);

function integer(b: Buffer): Buffer {
  let v = b;
  while (v.length > 1 && v[0] === 0 && v[1]! < 0x80) v = v.subarray(1);
  return tlv(0x02, v[0]! >= 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v);
}

function oid(text: string): Buffer {
  const parts = text.split('.').map(Number);
  const out = [40 * parts[0]! + parts[1]!];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = p >> 7; v > 0; v >>= 7) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

const name = (cn: string) => seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(cn, 'utf8')))));

function utcTime(d: Date): Buffer {
  const p = (n: number) => String(n).padStart(2, '0');
  const text = `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text));
}

const extension = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  const [head = '', tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return Buffer.concat(groups.map((g) => Buffer.from(g.padStart(4, '0'), 'hex')));
}

const ecdsaSha256 = seq(oid('1.2.840.10045.4.3.2'));

export interface Issued {
  keyPem: string;
  certPem: string;
}

interface Signer {
  name: Buffer;
  key: KeyObject;
  keyId: Buffer;
}

function certificate(
  subject: string,
  publicKey: KeyObject,
  issuer: Signer | null,
  signingKey: KeyObject,
  extensions: Buffer[],
): { pem: string; keyId: Buffer } {
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const keyId = createHash('sha1')
    .update(spki.subarray(spki.length - 65))
    .digest();
  const now = Date.now();
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(randomBytes(16)),
    ecdsaSha256,
    issuer ? issuer.name : name(subject),
    seq(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 7 * 86_400_000))),
    name(subject),
    spki,
    explicit(
      3,
      seq(
        extension('2.5.29.14', false, octets(keyId)),
        extension('2.5.29.35', false, seq(tlv(0x80, (issuer ?? { keyId }).keyId))),
        ...extensions,
      ),
    ),
  );
  const der = seq(tbs, ecdsaSha256, bits(sign('sha256', tbs, signingKey)));
  const pem = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
  return { pem, keyId };
}

export interface TinyCa {
  /** The CA certificate, for WEBHOOK_CA_FILE. */
  certPem: string;
  /** A server certificate for these DNS names and IP addresses, signed by the CA. */
  issue(hosts: string[]): Issued;
}

export function createTinyCa(commonName = 'Webhook test CA'): TinyCa {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ca = certificate(commonName, publicKey, null, privateKey, [
    extension('2.5.29.19', true, seq(bool(true))),
    // keyCertSign and cRLSign
    extension('2.5.29.15', true, bits(Buffer.from([0x06]), 1)),
  ]);
  const signer: Signer = { name: name(commonName), key: privateKey, keyId: ca.keyId };
  return {
    certPem: ca.pem,
    issue(hosts) {
      const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const altNames = hosts.map((h) => (isIP(h) ? tlv(0x87, ipBytes(h)) : tlv(0x82, Buffer.from(h))));
      const cert = certificate(hosts[0] ?? 'localhost', pair.publicKey, signer, signer.key, [
        extension('2.5.29.19', true, seq()),
        // digitalSignature
        extension('2.5.29.15', true, bits(Buffer.from([0x80]), 7)),
        extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))),
        extension('2.5.29.17', false, seq(...altNames)),
      ]);
      return { keyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certPem: cert.pem };
    },
  };
}
