// The hook for a second document on one listener (the Bot API's on the chat listener): served at
// /openapi/<slug>.json and offered by /docs beside the listener's own.
import Fastify from 'fastify';
import { isPublicPath, registerReferenceDocs, servedDocument } from './reference-docs.js';

test('an extra document is served and listed as a source of the reference page', async () => {
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: false } });
  const own = { openapi: '3.1.0', info: { title: 'Chat API', version: '1' }, paths: {} };
  const bot = { openapi: '3.1.0', info: { title: 'Bot API', version: '1' }, paths: {} };
  await registerReferenceDocs(app, 'chat', own, [{ slug: 'bot', title: 'Bot API', specification: bot }]);
  try {
    expect((await app.inject('/openapi.json')).json()).toEqual(own);
    expect((await app.inject('/openapi/bot.json')).json()).toEqual(bot);
    const page = (await app.inject('/docs/')).body;
    expect(page).toContain('/openapi/bot.json');
    expect(page).toContain('/openapi.json');
  } finally {
    await app.close();
  }
});

test('only the reference, probe and console paths are public', () => {
  for (const path of [
    '/openapi.json',
    '/docs',
    '/docs/',
    '/docs/js/scalar.js',
    '/openapi/bot.json',
    '/healthz',
    '/console/',
    '/console/assets/x.js',
  ]) {
    expect(isPublicPath(path)).toBe(true);
  }
  for (const path of ['/api/v1/partner/crm/leads', '/docsx', '/openapi.jsonx', '/consolex', '/api/v1/docs'])
    expect(isPublicPath(path)).toBe(false);
});

test('the served documents name the public URL as their server when one is set, else keep the relative one', async () => {
  const own = { openapi: '3.1.0', info: { title: 'Chat API', version: '1' }, servers: [{ url: '/' }], paths: {} };
  const bot = { openapi: '3.1.0', info: { title: 'Bot API', version: '1' }, servers: [{ url: '/' }], paths: {} };
  expect(JSON.parse(servedDocument(own, undefined))).toEqual(own);
  expect(JSON.parse(servedDocument(own, 'https://chat.example.com/')).servers).toEqual([
    { url: 'https://chat.example.com', description: 'This listener' },
  ]);
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: false } });
  await registerReferenceDocs(
    app,
    'chat',
    own,
    [{ slug: 'bot', title: 'Bot API', specification: bot }],
    'https://chat.example.com/api-root',
  );
  try {
    for (const url of ['/openapi.json', '/openapi/bot.json']) {
      expect((await app.inject(url)).json().servers).toEqual([{ url: 'https://chat.example.com/api-root', description: 'This listener' }]);
    }
  } finally {
    await app.close();
  }
});
