// SCHEMA_COMPILATION: startup (the default) or first-use; anything else stops the start with the setting's name.
import { ConfigError, loadConfig } from './index.js';

test('startup by default; first-use when asked', () => {
  expect(loadConfig({}).schemaCompilation).toBe('startup');
  expect(loadConfig({ SCHEMA_COMPILATION: 'first-use' }).schemaCompilation).toBe('first-use');
});

test('another value is refused with the setting named', () => {
  expect(() => loadConfig({ SCHEMA_COMPILATION: 'lazy' })).toThrow(ConfigError);
  expect(() => loadConfig({ SCHEMA_COMPILATION: 'lazy' })).toThrow(/SCHEMA_COMPILATION must be one of startup, first-use/);
});
