// WEBHOOK_RETRY_SCHEDULE: one entry per delivery attempt, at most the seed's 6.
import { ConfigError, loadConfig } from './index.js';

test("unset, the seed's schedule; set, one delay per attempt", () => {
  expect(loadConfig({}).webhooks.retrySchedule).toEqual([0, 60, 300, 1800, 7200, 43200]);
  expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0, 5, 10' }).webhooks.retrySchedule).toEqual([0, 5, 10]);
  expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1,1' }).webhooks.retrySchedule).toHaveLength(6);
});

test('more than 6 attempts, or an entry that is not whole seconds, is refused at start', () => {
  expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1,1,1' })).toThrow(ConfigError);
  expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1,1,1' })).toThrow(/WEBHOOK_RETRY_SCHEDULE must be 1 to 6/);
  expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,1.5' })).toThrow(ConfigError);
  expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,,1' })).toThrow(ConfigError);
});
