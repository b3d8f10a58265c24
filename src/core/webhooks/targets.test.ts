// Which webhook targets are refused: checked on the resolved address, never on the URL's text alone.
import { WebhookSender } from './sender.js';
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
  '127.0.0.1',
  '127.1.2.3',
  '10.0.0.5',
  '172.16.9.9',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '[::1]',
  '[::]',
  '[fe80::1]',
  '[fd00::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:10.1.1.1]',
  '[64:ff9b::a00:1]',
  '224.0.0.1',
  '255.255.255.255',
  '192.0.2.1',
  '[::127.0.0.1]',
  '[::7f00:1]',
  '[::10.0.0.1]',
  '[::ffff:0:127.0.0.1]',
  '[64:ff9b::127.0.0.1]',
  '[2002:7f00:1::]',
  '[2001::1]',
  // Other spellings of loopback are normalised by the URL parser first.
  '0x7f.0.0.1',
  '2130706433',
  '127.1',
];

test.each(refused)('%s is refused unless private targets are allowed', async (host) => {
  await expect(resolveTarget(url(`https://${host}/hook`), false, 5_000)).rejects.toBeInstanceOf(TargetRefused);
});

test('public addresses pass; with WEBHOOK_ALLOW_PRIVATE_TARGETS private ones too, never unspecified or multicast', async () => {
  await expect(resolveTarget(url('https://93.184.215.14/'), false, 5_000)).resolves.toEqual({ address: '93.184.215.14', family: 4 });
  await expect(resolveTarget(url('https://[2606:4700::1111]/'), false, 5_000)).resolves.toEqual({ address: '2606:4700::1111', family: 6 });
  await expect(resolveTarget(url('https://127.0.0.1:9/'), true, 5_000)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  await expect(resolveTarget(url('https://[fd00::1]/'), true, 5_000)).resolves.toMatchObject({ family: 6 });
  await expect(resolveTarget(url('https://0.0.0.0/'), true, 5_000)).rejects.toBeInstanceOf(TargetRefused);
  await expect(resolveTarget(url('https://224.0.0.1/'), true, 5_000)).rejects.toBeInstanceOf(TargetRefused);
});

test('a name is judged by what it resolves to, and the refusal does not tell the address', async () => {
  await expect(resolveTarget(url('https://localhost/hook'), false, 5_000)).rejects.toBeInstanceOf(TargetRefused);
  const internal = async () => [
    { address: '93.184.215.14', family: 4 },
    { address: '10.20.30.40', family: 4 },
  ];
  const refusal = await resolveTarget(url('https://intranet.example/hook'), false, 5_000, internal).catch((err: Error) => err);
  expect(refusal).toBeInstanceOf(TargetRefused);
  expect((refusal as Error).message).toContain('intranet.example');
  expect((refusal as Error).message).not.toContain('10.20.30.40');
  await expect(resolveTarget(url('https://localhost/hook'), true, 5_000)).resolves.toMatchObject({
    address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
  });
});

// The system resolver can take 5 s or more to give up on a name; a request that saves, tests or pings a webhook must
// still answer within the receiver time-out (a save once hung past the client's 10 s this way). The lookup here never
// answers: without the bound, the test would hang.
test('a name that does not resolve within the time-out is an ETIMEOUT error, and the sender reports it in time', async () => {
  const never = () => new Promise<Array<{ address: string; family: number }>>(() => undefined);
  await expect(resolveTarget(url('https://slow.example/hook'), false, 200, never)).rejects.toMatchObject({ code: 'ETIMEOUT' });
  const sender = new WebhookSender({ allowPrivateTargets: false, timeoutMs: 200, lookup: never });
  try {
    const outcome = await sender.post('https://slow.example/hook', '{}', {});
    expect(outcome).toMatchObject({ status: null, ok: false, retryable: true, error: 'dns: ETIMEOUT' });
  } finally {
    sender.close();
  }
});
