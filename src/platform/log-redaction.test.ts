// Request URLs as the log shows them: no bot token, no upload token, no credential-named query parameter.
import { redactUrl } from './log-redaction.js';

test('bot tokens in both path forms are cut out, the method stays', () => {
  expect(redactUrl('/bot/0190a1b2c3:AbC_dEf-123/getMe')).toBe('/bot/[redacted]/getMe');
  expect(redactUrl('/bot0190a1b2c3:AbC_dEf-123/sendMessage?chat_id=1')).toBe('/bot[redacted]/sendMessage?chat_id=1');
  expect(redactUrl('/bot/0190a1b2c3:AbC')).toBe('/bot/[redacted]');
  expect(redactUrl('/bot/0190:x/file/photos/a.jpg')).toBe('/bot/[redacted]/file/photos/a.jpg');
});

test('credential-named query parameters lose their values; others stay', () => {
  expect(redactUrl('/ws?access_token=eyJhbGciOi.x.y&room=r1')).toBe('/ws?access_token=[redacted]&room=r1');
  expect(redactUrl('/x?api_key=live_abc&Secret=s&signature=abc&limit=5')).toBe(
    '/x?api_key=[redacted]&Secret=[redacted]&signature=[redacted]&limit=5',
  );
  expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[redacted]');
  expect(redactUrl('/api/v1/rooms?limit=20&cursor=abc')).toBe('/api/v1/rooms?limit=20&cursor=abc');
});

test('upload tokens anywhere in the URL are cut out', () => {
  expect(redactUrl('/media/uploads/abc?t=upt_Q2x-y_z')).toBe('/media/uploads/abc?t=[redacted]');
});

test('paths that carry no credential are left alone', () => {
  expect(redactUrl('/api/v1/bots/0190/webhook')).toBe('/api/v1/bots/0190/webhook');
  expect(redactUrl('/healthz')).toBe('/healthz');
});
