// Which webhook targets are refused: checked on the resolved address, never on the URL's text alone.
import { parseWebhookUrl, resolveTarget, TargetRefused } from './targets.js';

const url = (text: string) => {
  const parsed = parseWebhookUrl(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

test('URLs: https only, no credentials, the fragment dropped', () => {
  expect(parseWebhookUrl('http://example.com/hook')).toContain('https');
  expect(parseWebhookUrl('ftp://example.com/')).toContain('https');
  expect(parseWebhookUrl('https://u:p@example.com/')).toContain('user name');
  expect(parseWebhookUrl('nonsense')).toBe('is not a URL');
  expect(parseWebhookUrl(`https://example.com/${'a'.repeat(2048)}`)).toContain('2048');
  expect((parseWebhookUrl('https://Example.COM:8443/in?x=1#frag') as URL).href).toBe('https://example.com:8443/in?x=1');
});

const refused = [
  '127.0.0.1', '127.1.2.3', '10.0.0.5', '172.16.9.9', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
  '[::1]', '[::]', '[fe80::1]', '[fd00::1]', '[::ffff:127.0.0.1]', '[::ffff:10.1.1.1]', '[64:ff9b::a00:1]', '224.0.0.1',
  '255.255.255.255', '192.0.2.1',
  // Other spellings of loopback are normalised by the URL parser first.
  '0x7f.0.0.1', '2130706433', '127.1',
];

test.each(refused)('%s is refused unless private targets are allowed', async (host) => {
  await expect(resolveTarget(url(`https://${host}/hook`), false)).rejects.toBeInstanceOf(TargetRefused);
});

test('public addresses pass; with WEBHOOK_ALLOW_PRIVATE_TARGETS private ones too, never unspecified or multicast', async () => {
  await expect(resolveTarget(url('https://93.184.215.14/'), false)).resolves.toEqual({ address: '93.184.215.14', family: 4 });
  await expect(resolveTarget(url('https://[2606:4700::1111]/'), false)).resolves.toEqual({ address: '2606:4700::1111', family: 6 });
  await expect(resolveTarget(url('https://127.0.0.1:9/'), true)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  await expect(resolveTarget(url('https://[fd00::1]/'), true)).resolves.toMatchObject({ family: 6 });
  await expect(resolveTarget(url('https://0.0.0.0/'), true)).rejects.toBeInstanceOf(TargetRefused);
  await expect(resolveTarget(url('https://224.0.0.1/'), true)).rejects.toBeInstanceOf(TargetRefused);
});

test('a name is judged by what it resolves to', async () => {
  await expect(resolveTarget(url('https://localhost/hook'), false)).rejects.toThrow(/localhost resolves to/);
  await expect(resolveTarget(url('https://localhost/hook'), true)).resolves.toMatchObject({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
});
