// The delivery-time check of bot webhooks: a URL saved while http and private targets were allowed stops being
// called once they are not, literal addresses included (they need no lookup, so the check cannot live there alone).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postUpdate } from './post.js';

let server: Server;
let port: number;
let received = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    received += 1;
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const lenient = { allowHttp: true, allowPrivate: true };
const strict = { allowHttp: false, allowPrivate: false };

test('with http and private targets allowed, the receiver is called', async () => {
  const before = received;
  await expect(postUpdate(`http://127.0.0.1:${port}/hook`, '{}', null, lenient, 5_000)).resolves.toEqual({ ok: true, status: 200 });
  expect(received).toBe(before + 1);
});

test.each([
  ['plain http, once no longer allowed', (p: number) => `http://127.0.0.1:${p}/hook`, { ...strict }],
  ['a literal loopback address over https', (p: number) => `https://127.0.0.1:${p}/hook`, { ...strict, allowHttp: true }],
  ['a literal loopback address over http', (p: number) => `http://127.0.0.1:${p}/hook`, { ...strict, allowHttp: true }],
  ['an IPv4-compatible IPv6 loopback', (p: number) => `http://[::127.0.0.1]:${p}/hook`, { ...strict, allowHttp: true }],
  ['an IPv4-mapped IPv6 loopback', (p: number) => `http://[::ffff:127.0.0.1]:${p}/hook`, { ...strict, allowHttp: true }],
  ['a name that resolves to loopback', (p: number) => `http://localhost:${p}/hook`, { ...strict, allowHttp: true }],
])('%s is refused at delivery time and nothing reaches the receiver', async (_what, url, policy) => {
  const before = received;
  const outcome = await postUpdate(url(port), '{}', null, policy, 5_000);
  expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/^Bad webhook: /) });
  expect((outcome as { error: string }).error).not.toMatch(/127\.0\.0\.1 |::1/);
  expect(received).toBe(before);
});

test('a redirect is not followed: it is a failed delivery and the place it points to is not called', async () => {
  const target = createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  let targetCalls = 0;
  target.on('request', () => (targetCalls += 1));
  const redirecting = createServer((req, res) => {
    req.resume();
    res.writeHead(307, { location: `http://127.0.0.1:${(target.address() as AddressInfo).port}/elsewhere` }).end();
  });
  await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
  try {
    const outcome = await postUpdate(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`, '{}', null, lenient, 5_000);
    expect(outcome).toEqual({ ok: false, error: 'Wrong response from the webhook: 307 Temporary Redirect' });
    expect(targetCalls).toBe(0);
  } finally {
    await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    await new Promise<void>((resolve) => target.close(() => resolve()));
  }
});
