// The four OpenAPI documents as an integrator's generator reads them: openapi-python-client (in the project's
// virtualenv) generates a client for each document, and a short script per document makes one write and one read call
// with it against the running listeners. A document the generator cannot read (or reads with warnings) fails here.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createBot } from '../../helpers/bots.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { testWorkspace } from '../../support/partner.js';
import { svcWorkspace } from '../../support/workspace.js';

const run = promisify(execFile);
const venvBin = path.resolve('.tools', 'venv', 'bin');
const documents = ['chat', 'bot', 'partner', 'workspace'] as const;

let platform: TestPlatform;
let clients: string;

/** Generates <name>_client from generated/openapi/<name>.json; the generator's post-hooks run ruff from the venv. */
async function generate(name: string): Promise<void> {
  const { stdout, stderr } = await run(
    path.join(venvBin, 'openapi-python-client'),
    [
      'generate',
      '--path',
      path.resolve('generated', 'openapi', `${name}.json`),
      '--output-path',
      path.join(clients, `${name}_client`),
      '--meta',
      'none',
      '--config',
      path.resolve('test', 'integration', 'generated-clients', 'openapi-python-client.yaml'),
    ],
    { env: { ...process.env, PATH: `${venvBin}:${process.env.PATH ?? ''}` } },
  );
  const output = stdout + stderr;
  if (/warning|error/i.test(output)) throw new Error(`openapi-python-client on ${name}.json:\n${output}`);
}

/** Runs test/integration/generated-clients/<name>_calls.py with the generated packages importable; its JSON line. */
async function calls(name: string, env: Record<string, string>): Promise<any> {
  const script = path.resolve('test', 'integration', 'generated-clients', `${name}_calls.py`);
  const { stdout } = await run(path.join(venvBin, 'python'), [script], { env: { ...process.env, ...env, PYTHONPATH: clients } });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

beforeAll(async () => {
  clients = await mkdtemp(path.join(tmpdir(), 'generated-clients-'));
  [platform] = await Promise.all([startTestPlatform({ services: ['chat', 'partner', 'workspace'] }), ...documents.map(generate)]);
});
afterAll(async () => {
  await platform?.stop();
  if (clients) await rm(clients, { recursive: true, force: true });
});

test('chat: createReminder and getReminder through the generated client', async () => {
  const account = await (await platform.tenant()).account();
  const out = await calls('chat', { BASE_URL: platform.chatUrl, TOKEN: account.token });
  expect(out.created.kind).toBe('ONE_TIME');
  expect(out.read).toMatchObject({ id: out.created.id, text: 'call the dentist' });
  const stored = await platform.db.query('select text, owner_id from reminders where id = $1', [out.created.id]);
  expect(stored.rows).toEqual([{ text: 'call the dentist', owner_id: account.id }]);
});

test('bot: setMyCommands, getMe and getMyCommands through the generated client', async () => {
  const bot = await createBot(platform, await platform.tenant());
  const out = await calls('bot', { BASE_URL: platform.chatUrl, BOT_TOKEN: bot.token });
  expect(out.set).toBe(true);
  expect(out.me).toMatchObject({ is_bot: true, username: bot.username });
  expect(out.commands).toEqual([{ command: 'start', description: 'Start over' }]);
});

test('partner: createLead (with an Idempotency-Key) and getLead through the generated client', async () => {
  const ws = await testWorkspace(platform);
  const { key } = await ws.key(['crm_leads:*']);
  const out = await calls('partner', { BASE_URL: platform.partnerUrl, API_KEY: key });
  expect(out.created.object).toBe('crm.lead');
  expect(out.read).toEqual({ id: out.created.id, full_name: 'Ada Lovelace', email: 'ada@example.com' });
});

test('workspace: createLead and getLead through the generated client', async () => {
  const ws = await svcWorkspace(platform);
  const { key } = await ws.key(['crm.*']);
  const out = await calls('workspace', { BASE_URL: platform.workspaceUrl, SVC_KEY: key });
  expect(out.created.status).toBe('new');
  expect(out.read).toEqual({ id: out.created.id, name: 'Grace Hopper', email: 'grace@example.com' });
});
