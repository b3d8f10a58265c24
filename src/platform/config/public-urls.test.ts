// CHAT_PUBLIC_URL, PARTNER_PUBLIC_URL and WORKSPACE_PUBLIC_URL: the `servers` of each listener's documents.
import { ConfigError, loadConfig } from './index.js';

test('unset, the listeners keep their documents relative; set, each names its own', () => {
  expect(loadConfig({})).toMatchObject({ chatPublicUrl: undefined, partnerPublicUrl: undefined, workspacePublicUrl: undefined });
  expect(
    loadConfig({
      CHAT_PUBLIC_URL: 'https://chat.example.com',
      PARTNER_PUBLIC_URL: 'https://partner.example.com',
      WORKSPACE_PUBLIC_URL: 'http://10.0.0.5:9082',
    }),
  ).toMatchObject({
    chatPublicUrl: 'https://chat.example.com',
    partnerPublicUrl: 'https://partner.example.com',
    workspacePublicUrl: 'http://10.0.0.5:9082',
  });
});

test('a public URL that is not an http(s) URL is refused at start', () => {
  expect(() => loadConfig({ CHAT_PUBLIC_URL: 'chat.example.com' })).toThrow(ConfigError);
  expect(() => loadConfig({ PARTNER_PUBLIC_URL: 'ftp://partner.example.com' })).toThrow(/PARTNER_PUBLIC_URL must use http or https/);
});
