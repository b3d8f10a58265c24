// Boolean settings are read by one parser: true/false, 1/0 and yes/no (any case) everywhere; anything else stops
// the start with the setting's name.
import { ConfigError, loadConfig, parseBoolean } from './index.js';

test.each([
  ['true', true],
  ['1', true],
  ['yes', true],
  ['YES', true],
  ['True', true],
  ['false', false],
  ['0', false],
  ['no', false],
  ['No', false],
])('%s reads as %s', (raw, value) => {
  expect(parseBoolean('X', raw)).toBe(value);
});

test('the bot webhook and workspace webhook settings take the same values', () => {
  for (const [raw, value] of [
    ['1', true],
    ['yes', true],
    ['0', false],
    ['no', false],
  ] as const) {
    const config = loadConfig({ BOT_WEBHOOK_ALLOW_HTTP: raw, BOT_WEBHOOK_ALLOW_PRIVATE: raw, WEBHOOK_ALLOW_PRIVATE_TARGETS: raw });
    expect([config.botWebhookAllowHttp, config.botWebhookAllowPrivate, config.webhooks.allowPrivateTargets]).toEqual([value, value, value]);
  }
});

test('anything else names the setting', () => {
  for (const name of ['BOT_WEBHOOK_ALLOW_HTTP', 'WEBHOOK_ALLOW_PRIVATE_TARGETS']) {
    expect(() => loadConfig({ [name]: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: 'maybe' })).toThrow(`${name} must be true or false (or 1/0, yes/no), got "maybe"`);
  }
});
