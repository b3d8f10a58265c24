// The console's settings: origins must be bare origins (what browsers send in Origin), URLs http or https.
import { ConfigError, loadConfig } from '../config/index.js';

test('CONSOLE_ORIGINS takes a comma list of origins, empty by default', () => {
  expect(loadConfig({}).consoleOrigins).toEqual([]);
  expect(loadConfig({ CONSOLE_ORIGINS: 'https://console.example.com, http://localhost:5173' }).consoleOrigins).toEqual([
    'https://console.example.com',
    'http://localhost:5173',
  ]);
});

test.each(['https://console.example.com/', 'https://console.example.com/settings', 'console.example.com', 'ftp://x.example', '*'])(
  'CONSOLE_ORIGINS refuses %s, naming the variable',
  (value) => {
    expect(() => loadConfig({ CONSOLE_ORIGINS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ CONSOLE_ORIGINS: value })).toThrow(/CONSOLE_ORIGINS/);
  },
);

test('CONSOLE_PARTNER_URL and CONSOLE_WORKSPACE_URL are http(s) URLs when set', () => {
  expect(loadConfig({ CONSOLE_PARTNER_URL: 'https://partner.example.com' }).consolePartnerUrl).toBe('https://partner.example.com');
  expect(loadConfig({}).consoleWorkspaceUrl).toBeUndefined();
  expect(() => loadConfig({ CONSOLE_WORKSPACE_URL: 'redis://x' })).toThrow(/CONSOLE_WORKSPACE_URL/);
});
