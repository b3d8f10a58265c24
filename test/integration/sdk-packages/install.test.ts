// The SDK packages as an integrator meets them: `npm pack` of each (from the dist/ that `make build` wrote), the
// tarballs installed into an empty folder outside the repository (dependencies from the npm cache or registry, the
// shared core from its own tarball), and each README's quick-start example run there, unchanged, against a live
// platform.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createBot } from '../../helpers/bots.js';
import { testWorkspace } from '../../support/partner.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** sdk/<folder> → package name; the core first, since the other four depend on it. */
const packages = {
  core: '@chat-platform/sdk-core',
  chat: '@chat-platform/chat-sdk',
  bot: '@chat-platform/bot-sdk',
  partner: '@chat-platform/partner-sdk',
  workspace: '@chat-platform/workspace-sdk',
} as const;

/** The line that marks the README block this test runs. */
const exampleMarker = '<!-- example: test/integration/sdk-packages installs the packed tarballs in an empty folder and runs this block -->';

async function readmeExample(folder: string): Promise<string> {
  const readme = await readFile(join(root, 'sdk', folder, 'README.md'), 'utf8');
  const at = readme.indexOf(exampleMarker);
  if (at < 0) throw new Error(`sdk/${folder}/README.md has no example marker`);
  const block = /```ts\n([\s\S]*?)\n```/.exec(readme.slice(at));
  if (!block) throw new Error(`sdk/${folder}/README.md: no ts block after the example marker`);
  return block[1]!;
}

interface PackResult {
  name: string;
  filename: string;
  files: Array<{ path: string }>;
}

let platform: TestPlatform;
let app: string;
let packed: PackResult[];

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'partner', 'workspace'] });
  app = await mkdtemp(join(tmpdir(), 'sdk-packages-'));
  // --ignore-scripts: the prepack build already ran as `make build`; packing must not need the compiler.
  const workspaces = Object.values(packages).flatMap((name) => ['-w', name]);
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', app, ...workspaces], { cwd: root });
  packed = JSON.parse(pack.stdout) as PackResult[];
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'sdk-integrator', private: true, type: 'module' }));
  await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...packed.map((p) => `./${p.filename}`)],
    { cwd: app },
  );
});
afterAll(async () => {
  await platform?.stop();
  if (app) await rm(app, { recursive: true, force: true });
});

/** Runs sdk/<folder>'s README example in the integrator's folder; resolves to what it printed. */
async function runExample(folder: keyof typeof packages, env: Record<string, string>): Promise<string> {
  const file = join(app, `${folder}-quickstart.mts`);
  await writeFile(file, await readmeExample(folder));
  // Only PATH from this process: no NODE_PATH or NODE_OPTIONS that could reach the repository's modules.
  const { stdout } = await run(process.execPath, [file], { cwd: app, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 });
  return stdout;
}

test('each tarball carries its built dist/ and installs outside the repository', async () => {
  expect(packed.map((p) => p.name)).toEqual(Object.values(packages));
  for (const p of packed) {
    const files = p.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'README.md', 'package.json']));
  }
  // Each SDK resolves the core installed from its tarball, not a copy of its own.
  const { stdout } = await run(
    process.execPath,
    ['--input-type=module', '-e', "console.log(import.meta.resolve('@chat-platform/sdk-core'))"],
    { cwd: app },
  );
  expect(stdout.trim()).toBe(`file://${join(app, 'node_modules/@chat-platform/sdk-core/dist/index.js')}`);
});

test('the chat README example runs', async () => {
  const account = await (await platform.tenant()).account();
  const out = await runExample('chat', { CHAT_URL: platform.chatUrl, CHAT_TOKEN: account.token });
  expect(out).toMatch(/^room [0-9a-f-]{36} \(GROUP\), you are OWNER$/m);
  expect(out).toContain('newest: five hasMore: true');
  expect(out).toContain("[ 'one' ] (start of the room)");
  expect(out).toMatch(/^expected error: 404 room_not_found request \S+$/m);
});

test('the bot README example runs', async () => {
  const tenant = await platform.tenant();
  const bot = await createBot(platform, tenant);
  const out = await runExample('bot', { CHAT_URL: platform.chatUrl, BOT_TOKEN: bot.token, POLL_MS: '1500' });
  expect(out).toContain(`bot @${bot.username} (`);
  expect(out).toMatch(/^expected error: 400 bad_request Bad Request: /m);
  expect(out).toContain('stopped polling');
});

test('the partner README example runs', async () => {
  const ws = await testWorkspace(platform);
  const key = await ws.key(['crm_leads:*']);
  const out = await runExample('partner', { PARTNER_URL: platform.partnerUrl, PARTNER_API_KEY: key.key });
  expect(out).toContain(`of workspace ${ws.id}`);
  expect(out).toMatch(/^created [0-9a-f-]{36} new$/m);
  expect(out).toContain('Ada Lovelace → qualified');
  expect(out).toMatch(/^expected error: 404 lead_not_found request \S+$/m);
});

test('the workspace README example runs', async () => {
  const ws = await svcWorkspace(platform);
  const key = await ws.key(['crm.*']);
  const out = await runExample('workspace', { WORKSPACE_URL: platform.workspaceUrl, SVC_KEY: key.key });
  expect(out).toMatch(/^Ada Lovelace$/m);
  expect(out).toMatch(/^404 not_found .* request \S*$/m);
});
