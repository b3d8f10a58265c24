// Where webhooks may point, at set time and at connection time.
import { guardedLookup } from '../../platform/http/outbound/index.js';
import { isPublicAddress, webhookUrlProblem } from './webhook-url.js';
import { entitiesOf, leadingCommand, mentionedUsernames } from './entities.js';
import { receives } from './updates/recipients.js';

const strict = { allowHttp: false, allowPrivate: false };

test('set time: https only, no credentials, no literal private, loopback or link-local address, no localhost', () => {
  expect(webhookUrlProblem('https://example.com/hook', strict)).toBeNull();
  expect(webhookUrlProblem('https://93.184.216.34:8443/hook', strict)).toBeNull();
  expect(webhookUrlProblem('http://example.com/hook', strict)).toBe('must be an https URL');
  expect(webhookUrlProblem('http://example.com/hook', { ...strict, allowHttp: true })).toBeNull();
  expect(webhookUrlProblem('ftp://example.com/', { ...strict, allowHttp: true })).toBe('must be an http or https URL');
  expect(webhookUrlProblem('not a url', strict)).toBe('is not an absolute URL');
  expect(webhookUrlProblem('https://u:p@example.com/', strict)).toBe('must not carry a user name or password');
  const privateHosts = [
    '127.0.0.1',
    '10.0.0.1',
    '192.168.1.1',
    '172.16.0.1',
    '169.254.169.254',
    '[::1]',
    '[fe80::1]',
    '[fc00::1]',
    '[::ffff:127.0.0.1]',
    '[::127.0.0.1]',
    '[64:ff9b::10.0.0.1]',
    '100.64.0.1',
  ];
  for (const host of privateHosts) {
    expect(webhookUrlProblem(`https://${host}/`, strict)).toBe('must not point at a private, loopback, link-local or reserved address');
    expect(webhookUrlProblem(`https://${host}/`, { ...strict, allowPrivate: true })).toBeNull();
  }
  // "No address" is never a target, whatever the policy.
  expect(webhookUrlProblem('https://0.0.0.0/', { ...strict, allowPrivate: true })).toBe(
    'must not point at a private, loopback, link-local or reserved address',
  );
  expect(webhookUrlProblem('https://localhost/', strict)).toBe('must not point at this machine');
  expect(webhookUrlProblem('https://a.localhost/', strict)).toBe('must not point at this machine');
  expect(isPublicAddress('8.8.8.8')).toBe(true);
  expect(isPublicAddress('not an address')).toBe(false);
});

/** The address a lookup function answers for the name; rejects with the error it answers instead. */
function lookupAddress(lookup: ReturnType<typeof guardedLookup>, hostname: string): Promise<string> {
  return new Promise<string>((resolve, reject) => lookup(hostname, {}, (err, a) => (err ? reject(err) : resolve(a as string))));
}

test('connection time: a name that resolves to a loopback address is refused', async () => {
  const lookup = guardedLookup(strict, 5_000);
  const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookup('localhost', {}, (err) => resolve(err)));
  expect(error?.code).toBe('EADDRNOTALLOWED');
  expect(error?.message).not.toMatch(/127\.0\.0\.1|::1/);
  const allowed = guardedLookup({ ...strict, allowPrivate: true }, 5_000);
  const address = await lookupAddress(allowed, 'localhost');
  expect(isPublicAddress(address)).toBe(false);
});

test('entities: commands (with their bot) and mentions, offsets in UTF-16 units', () => {
  expect(entitiesOf('/start@helper_bot go')).toEqual([{ type: 'bot_command', offset: 0, length: 17 }]);
  expect(entitiesOf('😀 hi @helper_bot and /help')).toEqual([
    { type: 'mention', offset: 6, length: 11 },
    { type: 'bot_command', offset: 22, length: 5 },
  ]);
  expect(entitiesOf('mail a@helper_bot.com or path/to/x')).toEqual([]);
  expect(leadingCommand('/Help@Helper_Bot now')).toEqual({ name: 'Help', to: 'helper_bot' });
  expect(leadingCommand(' /help')).toBeNull();
  expect([...mentionedUsernames('@Helper_Bot, @other_bot!')]).toEqual(['helper_bot', 'other_bot']);
});

test('who receives: private rooms and read-all take everything; groups take commands, mentions and replies to the bot', () => {
  const bot = { botAccountId: 'bot-account', username: 'Helper_Bot', readAll: false };
  const group = (text: string | null, rootSenderId: string | null = null, senderType = 'USER') => ({
    roomType: 'GROUP',
    senderType,
    text,
    rootSenderId,
  });
  expect(receives(bot, group('hello'))).toBe(false);
  expect(receives({ ...bot, readAll: true }, group('hello'))).toBe(true);
  expect(receives(bot, { ...group('hello'), roomType: 'PRIVATE' })).toBe(true);
  expect(receives(bot, group('/start'))).toBe(true);
  expect(receives(bot, group('/start@helper_bot'))).toBe(true);
  expect(receives(bot, group('/start@other_bot'))).toBe(false);
  expect(receives(bot, group('say /start later'))).toBe(false);
  expect(receives(bot, group('hi @HELPER_BOT'))).toBe(true);
  expect(receives(bot, group('hi @helper_bots'))).toBe(false);
  expect(receives(bot, group('a reply', 'bot-account'))).toBe(true);
  expect(receives(bot, group('a reply', 'someone-else'))).toBe(false);
  expect(receives({ ...bot, readAll: true }, group('/start', null, 'BOT'))).toBe(false);
  expect(receives({ ...bot, readAll: true }, group(null))).toBe(false);
});
