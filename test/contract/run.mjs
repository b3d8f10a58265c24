// Contract fuzzing: starts the built platform (embedded PostgreSQL + local redis-server) on free ports, mints
// development tokens and API keys, seeds rows through the API (test/contract/*-seed.mjs), and runs Schemathesis
// against generated/openapi/chat.json, partner.json and workspace.json with every check enabled, all phases
// (examples, coverage, fuzzing, stateful with links inferred from Location headers and responses) and a bounded
// number of examples per operation. Exits non-zero when Schemathesis reports any failure or error in any suite, or
// an operation it never got past its gate (see suiteRules). Narrow hooks: test/contract/hooks.py.
// `make test` and `make contract` call it after `make build`:
//
//   node test/contract/run.mjs
//
// Optional environment:
//   CONTRACT_MAX_EXAMPLES  test cases per operation in the fuzzing and stateful phases of the chat suite (default
//                          80)
//   CONTRACT_PARTNER_MAX_EXAMPLES, CONTRACT_WORKSPACE_MAX_EXAMPLES, CONTRACT_BOT_MAX_EXAMPLES  the same for those
//                          suites (60, 40 and 100); with these defaults the whole run (about 43,800 cases) takes
//                          about 20 minutes on 2 idle cores, nearly all of it Schemathesis generating cases (see
//                          docs/adr/0075-contract-warnings-fail.md and docs/adr/0151-what-the-contract-run-costs.md)
//   CONTRACT_SEED          replay a run with its seed (every run prints its seed)
//   CONTRACT_SUITES        run only these suites, comma-separated (chat, partner, partner-revocation, workspace, bot)
//   CONTRACT_WORKERS       Schemathesis workers (default 1, see below)
//   CONTRACT_LANES         suites run side by side, each lane a Schemathesis process of its own (default 2; 1 runs
//                          them one after another). A lane that ends a suite takes the next one of the list: bot and
//                          partner first, then chat, workspace and partner-revocation (docs/adr/0133), so that
//                          workspace starts once partner has ended (partner's alice may change her workspaces, one of
//                          which the workspace suite uses). With more than one lane a suite's output is printed
//                          whole when it ends.
//   CONTRACT_EXTRA_ARGS    more Schemathesis arguments, space-separated (e.g. "--include-operation-id getRoom
//                          --report vcr --report-vcr-path /tmp/cases.yaml" to see every case of one operation)
//   CONTRACT_KEEP_DATA     keep the temp dir (platform data, Schemathesis configs and reports) after the run
//   SCHEMATHESIS           the schemathesis executable (default .tools/venv/bin/schemathesis)
import { execFile, spawn } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { seedChat } from './chat-seed.mjs';
import { seedPartner } from './partner-seed.mjs';
import { seedWorkspace } from './workspace-seed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const spec = join(root, 'generated/openapi/chat.json');
const partnerSpec = join(root, 'generated/openapi/partner.json');
const workspaceSpec = join(root, 'generated/openapi/workspace.json');
const botSpec = join(root, 'generated/openapi/bot.json');
const mainJs = join(root, 'dist/src/main.js');
const devTokenJs = join(root, 'dist/src/cli/dev-token.js');
const devApiKeyJs = join(root, 'dist/src/cli/dev-api-key.js');
const devSvcKeyJs = join(root, 'dist/src/cli/dev-svc-key.js');
const schemathesis = process.env.SCHEMATHESIS ?? join(root, '.tools/venv/bin/schemathesis');
// Narrow hooks: each says which operation and why (see the file).
const hooksFile = join(root, 'test/contract/hooks.py');

// Cases per operation (Schemathesis counts chat 124 operations, partner 92 + 1, workspace 93, bot 43): about 43,800 cases,
// about 20 minutes on 2 idle cores, nearly all of it Schemathesis' own CPU (docs/adr/0151); a long run raises them.
const maxExamples = positiveInt('CONTRACT_MAX_EXAMPLES', 80);
const partnerMaxExamples = positiveInt('CONTRACT_PARTNER_MAX_EXAMPLES', 60);
const workspaceMaxExamples = positiveInt('CONTRACT_WORKSPACE_MAX_EXAMPLES', 40);
const botMaxExamples = positiveInt('CONTRACT_BOT_MAX_EXAMPLES', 100);
const onlySuites = (process.env.CONTRACT_SUITES ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
// One worker: Schemathesis' generator parses Python source with `ast` from several threads, and the venv's
// CPython 3.11.7 intermittently fails that with "SystemError: AST constructor recursion depth mismatch"
// (CPython gh-106905), reported as a run error. The platform, not the client, is the bottleneck anyway.
const workers = positiveInt('CONTRACT_WORKERS', 1);
// Schemathesis generates cases in one Python thread, about one core per process: two processes use both cores.
const lanes = positiveInt('CONTRACT_LANES', 2);
const seed = process.env.CONTRACT_SEED ? positiveInt('CONTRACT_SEED', 0) : Math.floor(Math.random() * 2 ** 31);
const readyTimeoutMs = 60_000;
const stopTimeoutMs = 30_000;

// The narrowings of checks (this one, and 413 and 431 among negative_data_rejection's statuses below); nothing else is
// excluded (all checks, all operations, all phases).
// positive_data_acceptance fails any 400 answered to a request its schema allows. These operations have rules
// OpenAPI cannot state (cross-parameter rules, opaque server-issued tokens, references to other rows, key
// material), which the server answers with a 400 whose details name the field. 400 is accepted by that check on
// these operations only, each for the reason beside it; every other check still applies to them.
const defaultPositiveStatuses = ['2xx', '3xx', '401', '403', '404', '409', '429', '5xx'];
const semanticRejections = [
  // cursor must be a cursor this service issued (anything else is invalid_cursor).
  'listRooms',
  // before and after must be cursors this service issued, and are mutually exclusive.
  'listMessages',
  'listThreadMessages',
  // cursor must be a cursor this service issued for the same list.
  'listRoomMembers',
  'listJoinRequests',
  'listThreads',
  // until / mutedUntil must be in the future; muted=false cannot be combined with mutedUntil.
  'muteRoom',
  'updateRoomPreferences',
  // accountIds must name active accounts of the caller's customer (and module, unless CROSS_MODULE).
  'addRoomMembers',
  // the requested account must still be able to join (active, same customer and module) when approved.
  'approveJoinRequest',
  // memberIds must name active accounts of the caller's customer (and module, unless CROSS_MODULE).
  'createRoom',
  // accountId must name another active account of the caller's module and customer, not the caller.
  'getOrCreatePrivateRoom',
  // moduleCode must name an existing module.
  'registerAccount',
  // the contract limits ratePerHour and burstPerMinute come with the enterprise plan only.
  'setWorkspacePlan',
  // publicKeyPem must be a PEM SubjectPublicKeyInfo key usable with the chosen algorithm.
  'registerCustomerKey',
  // cursor must be a cursor this service issued.
  'listChannels',
  'listChannelMembers',
  'listContactRequests',
  'listMyBroadcasts',
  // rule must be a sentence of the rule language (docs/chat.md, "Channels"), required in RULE mode only; memberIds in
  // EXPLICIT mode only, naming active accounts of the caller's module and customer.
  'createChannel',
  // rule must be a sentence of the rule language.
  'updateChannelRule',
  // accountId must name an active account of the channel's module and customer.
  'addChannelMember',
  // accountId must name an active USER account other than the caller.
  'createContactRequest',
  // audience.modules must name existing modules.
  'createTargetedBroadcast',
  // cursor must be a cursor this service issued.
  'listRoomMembers',
  'listJoinRequests',
  'listThreads',
  'listThreadMessages',
  'listSavedMessages',
  'listMentions',
  // a mute end (until, mutedUntil) must lie in the future; muted: false cannot come with mutedUntil.
  'muteRoom',
  'updateRoomPreferences',
  // accountIds must name active accounts that can join the room (customer, module unless CROSS_MODULE).
  'addRoomMembers',
  // messageId must name a message of the room (thread: a reply of the thread or its root).
  'markRoomRead',
  'markThreadRead',
  // fromRoomId and messageIds must name a readable room and its messages; ids repeated in another case.
  'forwardMessages',
  // the join request's account must still be able to join the room.
  'approveJoinRequest',
  // threadRootId must name a message of the room.
  'sendMessage',
  // labelIds must name labels of the caller.
  'setRoomLabels',
  // options must differ once trimmed, ignoring letter case.
  'createPoll',
  // optionIds must name options of the poll, exactly one on a single-choice poll.
  'votePoll',
  // size and contentType must be within UPLOAD_MAX_BYTES and UPLOAD_ALLOWED_TYPES, which are configuration.
  'createUploadSession',
  // sendAt must be in the future (and at most five years ahead) by the server's clock.
  'createScheduledMessage',
  'updateScheduledMessage',
  // exactly one of remindAt and recurrence; remindAt in the future; timeZone a zone of the time zone database;
  // daysOfWeek only and always for WEEKLY, dayOfMonth only and always for MONTHLY.
  'createReminder',
  'updateReminder',
  // cursor must be a cursor this service issued.
  'listReminders',
  'listScheduledMessages',
  // moduleCode must name an existing module (as registerAccount).
  'createBot',
  // url must be https and must not point at a private, loopback or link-local address.
  'setBotWebhook',
  'createWebhook',
  // data must be the callback_data of a button of that message.
  'pressInlineButton',
  // a platform administrator must name moduleCode and customerAccountId; a room's days must not exceed its customer's default.
  'getCustomerRetention',
  'setCustomerRetention',
  'setRoomRetention',
  // cursor must be a cursor this service issued.
  'listBots',
  'listWebhooks',
  'listRoomMembers',
  'listJoinRequests',
  'listThreads',
  'listThreadMessages',
  // a mute end must be in the future, and muted: false cannot come with mutedUntil.
  'muteRoom',
  'updateRoomPreferences',
  // accountIds must name active accounts of the caller's customer (and module, unless CROSS_MODULE).
  'addRoomMembers',
  // q must be plain words (no query operators, 1 to 10 words); cursor must be a cursor this service issued.
  'searchMessages',
];

function positiveInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) fail(`${name} must be a positive whole number, got "${raw}"`);
  return Number(raw);
}

function fail(message) {
  process.stderr.write(`contract: ${message}\n`);
  process.exit(2);
}

const log = (message) => process.stdout.write(`contract: ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The platform must start its own embedded servers in the temp dir, never use a configured database. */
function withoutInfraUrls(env) {
  const copy = { ...env };
  delete copy.DATABASE_URL;
  delete copy.REDIS_URL;
  return copy;
}

/** The platform child process, with the tail of its output kept for diagnostics. */
class Platform {
  constructor(dataDir, port, partnerPort, workspacePort) {
    this.dataDir = dataDir;
    this.url = `http://127.0.0.1:${port}`;
    this.partnerUrl = `http://127.0.0.1:${partnerPort}`;
    this.workspaceUrl = `http://127.0.0.1:${workspacePort}`;
    this.port = port;
    this.partnerPort = partnerPort;
    this.workspacePort = workspacePort;
    this.output = [];
    this.exit = null;
    this.child = null;
  }

  start() {
    this.child = spawn(process.execPath, [mainJs], {
      cwd: root,
      // Its own process group, shared with the PostgreSQL and redis-server it starts, so that stop() can reach
      // whatever it leaves behind.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...withoutInfraUrls(process.env),
        DATA_DIR: this.dataDir,
        CHAT_PORT: String(this.port),
        PARTNER_PORT: String(this.partnerPort),
        WORKSPACE_PORT: String(this.workspacePort),
        // Bots send as fast as the fuzzer asks, and long polls answer at once (their waits have their own tests).
        BOT_SEND_RATE_PER_SECOND: '1000000',
        BOT_LONG_POLL_MAX_SECONDS: '0',
        // Every request comes from 127.0.0.1: the rate limit has its own tests and would only turn cases into 429s.
        RATE_LIMIT_PER_MINUTE: '100000000',
        RATE_LIMIT_PER_DAY: '1000000000',
        // A handful of accounts send thousands of messages a minute here; the send limit has its own tests.
        SEND_RATE_LIMIT_PER_MINUTE: '1000000',
        DEV_SIGNING_KEY: '1',
        LOG_LEVEL: 'warn',
        // Webhook pings go to whatever host a case names; a short time-out keeps each case within the request timeout.
        WEBHOOK_TIMEOUT_MS: '2000',
      },
    });
    const keep = (chunk) => {
      this.output.push(chunk.toString());
      if (this.output.length > 300) this.output.splice(0, this.output.length - 300);
    };
    this.child.stdout.on('data', keep);
    this.child.stderr.on('data', keep);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve((this.exit = { code, signal })));
    });
  }

  async waitReady(shouldStop) {
    const deadline = Date.now() + readyTimeoutMs;
    let last = 'no answer yet';
    while (Date.now() < deadline) {
      if (this.exit) throw new Error(`the platform exited while starting (code ${this.exit.code}, signal ${this.exit.signal})`);
      if (shouldStop()) throw new Error('interrupted while waiting for the platform');
      try {
        const res = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
        last = `HTTP ${res.status} ${await res.text()}`;
        if (res.status === 200) return;
      } catch (err) {
        last = err?.cause?.code ?? err?.message ?? String(err);
      }
      await sleep(250);
    }
    throw new Error(`GET /readyz did not answer 200 within ${readyTimeoutMs / 1000}s (last: ${last})`);
  }

  /** SIGTERM and wait; then stop anything left in its process group; SIGKILL what does not stop in time. */
  async stop() {
    if (!this.child?.pid) return;
    if (!this.exit) {
      this.child.kill('SIGTERM');
      const stopped = await Promise.race([this.exited.then(() => true), sleep(stopTimeoutMs).then(() => false)]);
      if (!stopped) {
        log(`the platform did not stop within ${stopTimeoutMs / 1000}s of SIGTERM; killing its process group`);
        this.signalGroup('SIGKILL');
        await this.exited;
      } else if (this.exit.code !== 0) {
        const lines = this.output.join('').split('\n');
        const firstError = lines.find((line) => /^\s*(\w*Error|error):/.test(line)) ?? lines.find((line) => /error/i.test(line)) ?? '';
        log(`the platform exited with code ${this.exit.code} on SIGTERM${firstError ? `: ${firstError.trim().slice(0, 300)}` : ''}`);
      }
    }
    // A platform that fails during shutdown leaves its redis-server (and maybe PostgreSQL) running.
    if (this.signalGroup('SIGTERM')) {
      log('stopping processes the platform left running in its process group');
      for (let i = 0; i < 50 && this.signalGroup(0); i++) await sleep(100);
      if (this.signalGroup('SIGKILL')) log('killed them after 5s');
    }
  }

  /** Sends a signal to the platform's process group; false when the group is empty. */
  signalGroup(signal) {
    try {
      process.kill(-this.child.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  dumpOutput(header) {
    const text = this.output.join('').trimEnd();
    process.stderr.write(`----- ${header} -----\n${text || '(no output)'}\n----- end of platform output -----\n`);
  }
}

const execFileAsync = promisify(execFile);

/** A JWT from the dev-token CLI, which registers the account and the development signing key as needed. */
async function devToken(dataDir, args) {
  const { stdout } = await execFileAsync(process.execPath, [devTokenJs, ...args], {
    cwd: root,
    env: { ...withoutInfraUrls(process.env), DATA_DIR: dataDir },
  });
  const token = stdout.trim();
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) throw new Error(`dev-token ${args.join(' ')} printed no JWT`);
  return token;
}

/** An API key from the dev-api-key CLI, which creates the named workspace (business plan) as needed. */
async function devApiKey(dataDir, args) {
  const { stdout } = await execFileAsync(process.execPath, [devApiKeyJs, ...args], {
    cwd: root,
    env: { ...withoutInfraUrls(process.env), DATA_DIR: dataDir },
  });
  const key = stdout.trim();
  if (!/^(live|test|dev)_[\w-]{40}$/.test(key)) throw new Error(`dev-api-key ${args.join(' ')} printed no key`);
  return key;
}

/** A svc_ key from the dev-svc-key CLI, which creates the named workspace (and its owner) as needed. */
async function devSvcKey(dataDir, args) {
  const { stdout } = await execFileAsync(process.execPath, [devSvcKeyJs, ...args], {
    cwd: root,
    env: { ...withoutInfraUrls(process.env), DATA_DIR: dataDir },
  });
  const key = stdout.trim();
  if (!/^svc_(live|test)_[A-Za-z0-9]{32}$/.test(key)) throw new Error(`dev-svc-key ${args.join(' ')} printed no key`);
  return key;
}

/** SubjectPublicKeyInfo PEMs for ES256, RS256 and EdDSA. */
function publicKeyPems() {
  const spki = { type: 'spki', format: 'pem' };
  const pkcs8 = { type: 'pkcs8', format: 'pem' };
  return [
    generateKeyPairSync('ec', { namedCurve: 'P-256', publicKeyEncoding: spki, privateKeyEncoding: pkcs8 }).publicKey,
    generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: spki, privateKeyEncoding: pkcs8 }).publicKey,
    generateKeyPairSync('ed25519', { publicKeyEncoding: spki, privateKeyEncoding: pkcs8 }).publicKey,
  ];
}

// A JSON string or array of strings is also a valid TOML value.
const toml = (value) => JSON.stringify(value);

// An operation that only ever got 401/403, only 404 for want of ids, or mostly 400 for data the schema allows was never
// fuzzed past its gate: these warnings fail the suite. A new operation needs seeded rows, dictionary entries or schema
// constraints (see the *-seed.mjs files) to pass.
const unreachedWarnings = ['missing_auth', 'missing_test_data', 'validation_mismatch'];

// negative_data_rejection takes Schemathesis' default statuses, 413 and 431: a listener refuses a body over
// BODY_LIMIT_BYTES before reading it (the Bot API's keyboards let generated invalid data grow past 256 KiB), and Node
// refuses a request line and headers over 16 KiB before routing (an over-long query value of multi-byte characters,
// percent-encoded, grows past it); both reject the request as surely as a 400.
const negativeDataStatuses = ['400', '401', '403', '404', '405', '406', '409', '413', '415', '422', '428', '429', '431', '5xx'];

/** What every suite's configuration starts with: the warnings that fail it, and the checks' own settings. */
const suiteRules = [
  // No example database in the fuzzing phase: with one, Hypothesis keeps a Pareto front of the targets Schemathesis
  // reports for every case (the operation's success rate) and shrinks along it, up to a fifth of a suite's CPU for no
  // more cases (docs/adr/0134-checks-on-idle-cpu-and-no-example-database.md). The stateful phase keeps it.
  '[phases.fuzzing.generation]',
  `database = ${toml('none')}`,
  '',
  '[warnings]',
  `fail-on = ${toml(unreachedWarnings)}`,
  '',
  '[checks.negative_data_rejection]',
  `expected-statuses = ${toml(negativeDataStatuses)}`,
  '',
];

function schemathesisConfig({ authFile, accounts, seeded }) {
  return [
    // Identities. Most operations are for ordinary users; /api/v1/admin/* and /api/v1/accounts/* need a platform
    // administrator. Instead of two runs split by path, one run takes a Web Fuzzing Commons auth document that lists
    // every identity: Schemathesis tries them per operation in document order and keeps, for each operation, the
    // first one admitted (a 401 or 403 moves it on). Chat operations thus run as alice, with real 2xx answers on her
    // own rooms and messages; admin and account operations settle on the admin; and the stateful phase can chain
    // all of them in one run. alice and bob are `peers`, which enables the object_level_authorization check: bob
    // replays alice's successful reads (her rooms, her messages) and must not be given them.
    ...suiteRules,
    '[auth.wfc]',
    `path = ${toml(authFile)}`,
    `peers = ${toml(['alice', 'bob'])}`,
    '',
    // Random uuids never name a registered account, so getOrCreatePrivateRoom and createRoom with members would
    // always stop at "names no active account". Half of the draws use accounts that exist: bob and carol, in
    // alice's module and customer (alice herself is left out: a private room with oneself is refused).
    '[dictionaries.accounts]',
    `values = ${toml(accounts)}`,
    '',
    // Modules that exist (dev for the users, platform for the administrators), so that registerAccount and the
    // customer-key operations get past "no such module" half of the time.
    '[dictionaries.modules]',
    `values = ${toml(['dev', 'platform'])}`,
    '',
    // Public keys that parse, one per accepted algorithm, so that registerCustomerKey can answer 201.
    '[dictionaries.publicKeys]',
    `values = ${toml(publicKeyPems())}`,
    '',
    // Rooms, messages, threads and join requests seeded through the API (see chat-seed.mjs).
    ...dictionaryTables(seeded.dictionaries),
    '[parameters]',
    `"body.accountId" = { dictionary = "accounts", probability = 0.5 }`,
    `"body.memberIds[*]" = { dictionary = "accounts", probability = 0.5 }`,
    `"body.accountIds[*]" = { dictionary = "accounts", probability = 0.5 }`,
    `"path.accountId" = { dictionary = "accounts", probability = 0.5 }`,
    `"body.moduleCode" = { dictionary = "modules", probability = 0.5 }`,
    `"path.code" = { dictionary = "modules", probability = 0.5 }`,
    `"body.audience.modules[*]" = { dictionary = "modules", probability = 0.5 }`,
    `"body.publicKeyPem" = { dictionary = "publicKeys", probability = 0.5 }`,
    ...bindingLines(seeded.parameters),
    '',
    ...operationBlocks(semanticRejections, seeded.operations),
  ].join('\n');
}

/** `[dictionaries.<name>]` tables. */
function dictionaryTables(dictionaries) {
  return Object.entries(dictionaries).flatMap(([name, values]) => [`[dictionaries.${name}]`, `values = ${toml(values)}`, '']);
}

/** Parameter bindings to dictionaries: half of the draws come from the dictionary, half are generated. */
function bindingLines(bindings, prefix = '') {
  // A binding names its dictionary (half of the draws), or is { dictionary, probability }.
  return Object.entries(bindings).map(([parameter, binding]) => {
    const { dictionary, probability } = typeof binding === 'string' ? { dictionary: binding, probability: 0.5 } : binding;
    return `${prefix}${toml(parameter)} = { dictionary = ${toml(dictionary)}, probability = ${probability} }`;
  });
}

/**
 * The per-operation settings. Schemathesis walks every `[[operations]]` block for each case it generates (to find the
 * blocks that apply), so their number is a cost per case: one block per distinct set of dictionary bindings, naming
 * every operation bound that way (an operation is in one of them only: Schemathesis takes `parameters` from the first
 * block that names it), then a single block naming all the `rejections`, for which positive_data_acceptance accepts
 * 400. An operation in both gets the two merged.
 */
function operationBlocks(rejections, bindings = {}) {
  const bySet = new Map();
  for (const [operationId, parameters] of Object.entries(bindings)) {
    const key = JSON.stringify(Object.entries(parameters).sort(([a], [b]) => a.localeCompare(b)));
    bySet.set(key, { parameters, operationIds: [...(bySet.get(key)?.operationIds ?? []), operationId] });
  }
  const bound = [...bySet.values()].flatMap(({ parameters, operationIds }) => [
    '[[operations]]',
    `include-operation-id = ${toml(operationIds.length === 1 ? operationIds[0] : operationIds)}`,
    ...bindingLines(parameters, 'parameters.'),
    '',
  ]);
  if (rejections.length === 0) return bound;
  return [
    ...bound,
    '[[operations]]',
    `include-operation-id = ${toml([...new Set(rejections)])}`,
    `checks.positive_data_acceptance.expected-statuses = ${toml([...defaultPositiveStatuses, '400'])}`,
    '',
  ];
}

// Partner operations with rules OpenAPI cannot state answer some schema-valid requests with 400 bad_input naming
// the field; positive_data_acceptance accepts 400 on these only, each for the reason beside it.
const partnerSemanticRejections = [
  // cursor must be a next_cursor this service issued for the same list.
  'listLeads',
  'listDeals',
  'listContacts',
  'listCompanies',
  'listActivities',
  'listInvoices',
  'listQuotations',
  'listPayments',
  'listProducts',
  'listSubscriptions',
  'listWorkspaces',
  'listMembers',
  'listApiKeys',
  // company_id, contact_id and entity_id must name records of the key's workspace.
  'createContact',
  'updateContact',
  'createDeal',
  'updateDeal',
  'createActivity',
  // scopes from the catalogue, exactly one of scopes and preset, expires_at in the future.
  'createApiKey',
  // plan must be a plan of the catalogue; role must be a role of the workspace.
  'setWorkspacePlan',
  'putMember',
  // cursor as above; the URL's host must resolve to public addresses only; custom header names must be HTTP tokens
  // other than the delivery's own headers.
  'listWebhookEndpoints',
  'listWebhookDeliveries',
  'createWebhookEndpoint',
  'updateWebhookEndpoint',
  // cursor as above; assignee_id and author_id must be members of the key's workspace; a report's to must not be
  // before its from, at most 366 days after it, and both must be calendar dates.
  'listInboxConversations',
  'listInboxConversationMessages',
  'listInboxMessages',
  'listInboxChannels',
  'updateInboxConversation',
  'sendInboxMessage',
  'getInboxReport',
  // cursor as above (a search's is bound to its q and tag); kb_article_ids must name articles of the workspace.
  'listKbArticles',
  'searchKbArticles',
  'listAiAgents',
  'listStorageFiles',
  'createAiAgent',
  'updateAiAgent',
];

function partnerConfig({ authFile, scopes, presets, workspaces, seeded = { dictionaries: {}, parameters: {}, operations: {} } }) {
  return [
    // Identities, tried in this order per operation: alice with her bearer JWT for the workspace administration
    // paths (a key surface refuses her with 401, which moves Schemathesis on), then the key for the key surfaces,
    // then the platform administrator. alice comes first because Schemathesis keeps the headers of an identity it
    // moved on from: a case first built for the key still carries X-Api-Key when sent as alice, and the key gate
    // refuses any key on an administration path (403), so those paths would never be reached as alice; a stale
    // bearer token on a key surface is ignored. `key` and `peer` hold the same scopes in two workspaces:
    // object_level_authorization replays the key's reads with the peer, which must not be given them.
    ...suiteRules,
    '[auth.wfc]',
    `path = ${toml(authFile)}`,
    `peers = ${toml(['key', 'peer'])}`,
    '',
    '[dictionaries.scopes]',
    `values = ${toml(scopes)}`,
    '',
    '[dictionaries.presets]',
    `values = ${toml(presets)}`,
    '',
    '[dictionaries.plans]',
    `values = ${toml(['free', 'team', 'business', 'enterprise'])}`,
    '',
    '[dictionaries.workspaces]',
    `values = ${toml(workspaces)}`,
    '',
    '[dictionaries.roles]',
    `values = ${toml(['admin', 'manager', 'staff'])}`,
    '',
    // CRM records, members, keys, webhook endpoints and a delivery seeded through the API (see partner-seed.mjs).
    ...dictionaryTables(seeded.dictionaries),
    '[parameters]',
    `"body.scopes[*]" = { dictionary = "scopes", probability = 0.7 }`,
    `"body.preset" = { dictionary = "presets", probability = 0.5 }`,
    `"body.plan" = { dictionary = "plans", probability = 0.5 }`,
    `"body.role" = { dictionary = "roles", probability = 0.5 }`,
    `"path.workspace_id" = { dictionary = "workspaces", probability = 0.5 }`,
    ...bindingLines(seeded.parameters),
    '',
    ...operationBlocks(partnerSemanticRejections, seeded.operations),
  ].join('\n');
}

// Bot API methods with rules OpenAPI cannot state answer some schema-valid requests with 400 in Telegram's words;
// positive_data_acceptance accepts 400 on these only, each for the reason beside it.
const botSemanticRejections = [
  // chat_id must be a room the bot is in; reply_to_message_id and message_thread_id must name its messages; every
  // inline button has exactly one of callback_data and url, rows hold at most 8 buttons, callback_data at most 64
  // bytes.
  'sendMessage',
  // message_id must be a message of the bot in that room, and the edit must change something.
  'editMessage',
  'editMessageText',
  // As for editMessageText; a caption is edited on a message with a file only.
  'editMessageReplyMarkup',
  'editMessageCaption',
  // message_id must be a message of that room that is not recalled.
  'setMessageReaction',
  // message_id must be a message the bot may recall.
  'deleteMessage',
  // callback_query_id must be an unanswered press of a button of this bot.
  'answerCallbackQuery',
  // url must be https and must not point at a private, loopback or link-local address; a certificate must be PEM.
  'setWebhook',
  // chat_id must be a room the bot is in (as for every chat method below).
  'getChat',
  'getChatMemberCount',
  'sendChatAction',
  // user_id must be a member of that room.
  'getChatMember',
  // pinning needs an owner or admin bot and a message of the room that is not recalled.
  'pinChatMessage',
  'unpinChatMessage',
  // both chats must be rooms of the bot, and message_id a message of the source room (copyMessage: with text).
  'forwardMessage',
  'copyMessage',
  // document, photo, video, animation, audio, voice, video_note and file_id must name a file the bot can see
  // (sendPhoto: an image); an uploadId must be a finished upload of the bot's account; a URL must be fetchable.
  'sendDocument',
  'sendPhoto',
  'sendVideo',
  'sendAnimation',
  'sendAudio',
  'sendVoice',
  'sendVideoNote',
  'getFile',
  // As above for every file of the album, and documents and audios may not be mixed with other kinds.
  'sendMediaGroup',
  // chat_id must be a room the bot is in; renaming and describing need an owner or admin bot and a group; a private
  // room cannot be left; deleting another member's message needs an owner or admin bot.
  'getChatAdministrators',
  'leaveChat',
  'setChatTitle',
  'setChatDescription',
  'deleteMessages',
  // options must differ from each other ignoring case; a quiz names its correct option and takes one answer;
  // open_period and close_date are refused (polls here close when closed).
  'sendPoll',
  // message_id must be an open poll the bot sent in that room.
  'stopPoll',
];

/** A binding that draws from the dictionary most of the time, for operations whose ids rarely hit by chance. */
const often = (dictionary) => ({ dictionary, probability: 0.9 });

// Messages of the bot per operation: edits on two of them, deletions on ten others. An edit must change something
// (Telegram's "message is not modified"), and the generator repeats its smallest texts: half of the edits draw from
// ten texts, so that one edit after another changes the message.
const botMessageIds = {
  editMessage: { 'body.chat_id': 'editRooms', 'body.message_id': 'editable', 'body.text': 'editTexts' },
  editMessageText: { 'body.chat_id': 'editRooms', 'body.message_id': 'editable', 'body.text': 'editTexts' },
  // Removing a keyboard works once per message ("not modified" after): many messages with one.
  editMessageReplyMarkup: { 'body.chat_id': 'editRooms', 'body.message_id': often('withKeyboards') },
  // Reactions on alice's first message of the sends room.
  setMessageReaction: { 'body.chat_id': often('rooms'), 'body.message_id': often('forwardable') },
  editMessageCaption: { 'body.chat_id': 'editRooms', 'body.message_id': 'captioned', 'body.caption': 'editTexts' },
  deleteMessage: { 'body.message_id': 'deletable' },
  // Alice's first message of the sends room (the bot cannot delete it), the bot's own id, and the room where the
  // bot is an admin with a message to pin.
  forwardMessage: { 'body.chat_id': often('rooms'), 'body.from_chat_id': often('rooms'), 'body.message_id': often('forwardable') },
  copyMessage: { 'body.chat_id': often('rooms'), 'body.from_chat_id': often('rooms'), 'body.message_id': often('forwardable') },
  getChatMember: { 'body.chat_id': often('rooms'), 'body.user_id': often('members') },
  pinChatMessage: { 'body.chat_id': often('pinRooms'), 'body.message_id': often('pinnable') },
  unpinChatMessage: { 'body.chat_id': often('pinRooms'), 'body.message_id': often('pinnable') },
  // Rooms of their own: a room is left once, and bulk deletions would take the messages the others need. Renames
  // in the room where the bot is an admin.
  leaveChat: { 'body.chat_id': often('leaveRooms') },
  deleteMessages: { 'body.chat_id': often('bulkRooms') },
  setChatTitle: { 'body.chat_id': often('pinRooms') },
  setChatDescription: { 'body.chat_id': often('pinRooms') },
  // A poll is stopped once: many polls of the bot in a room of their own.
  stopPoll: { 'body.chat_id': 'pollRooms', 'body.message_id': often('stoppable') },
};

// The dictionaries of the bot suite, as prepareBots makes them.
const botDictionaries = [
  'tokens',
  'rooms',
  'presses',
  'editRooms',
  'editable',
  'captioned',
  'withKeyboards',
  'deletable',
  'forwardable',
  'members',
  'pinRooms',
  'pinnable',
  'files',
  'photos',
  'leaveRooms',
  'bulkRooms',
  'pollRooms',
  'stoppable',
];

// The file field of each media method, which takes any file the bot can see.
const mediaMethods = {
  video: 'sendVideo',
  animation: 'sendAnimation',
  audio: 'sendAudio',
  voice: 'sendVoice',
  video_note: 'sendVideoNote',
};

function botConfig(bots) {
  return [
    ...suiteRules,
    // The Bot API authenticates by the token in the path: most draws use the token of a bot that is a member of
    // a room of its owner's with some history, the rest get 401 as they should.
    ...dictionaryTables({
      ...Object.fromEntries(botDictionaries.map((name) => [name, bots[name]])),
      editTexts: Array.from({ length: 10 }, (_, i) => `Edited ${i + 1}`),
    }),
    '[parameters]',
    ...bindingLines({
      'path.token': { dictionary: 'tokens', probability: 0.9 },
      'body.chat_id': { dictionary: 'rooms', probability: 0.7 },
      'body.callback_query_id': 'presses',
      // Files the bot sent in its room, a document and a photo (the coverage phase takes them from the seeded values).
      'body.document': often('files'),
      'body.photo': often('photos'),
      'body.file_id': often('files'),
      ...Object.fromEntries(Object.keys(mediaMethods).map((field) => [`body.${field}`, often('files')])),
    }),
    '',
    ...operationBlocks(botSemanticRejections, botMessageIds),
  ].join('\n');
}

/** JSON calls to the chat API and the Bot API; a refusal ends the setup with what was answered. */
function chatCalls(chatUrl) {
  return async (method, path, token, body) => {
    const res = await fetch(`${chatUrl}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const parsed = await res.json();
    if (!res.ok) throw new Error(`bot setup: ${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
    return parsed.data ?? parsed.result;
  };
}

/** A bot of the administrator (module and customer dev) in a room of the owner's, with a message carrying a keyboard. */
async function botWithKeyboard(json, adminToken, ownerToken) {
  const tag = randomUUID().replace(/-/g, '').slice(0, 10);
  const made = await json('POST', '/api/v1/bots', adminToken, {
    username: `contract_${tag}`,
    displayName: 'Contract bot',
    moduleCode: 'dev',
    customerAccountId: 'dev',
  });
  const keyboardRoom = await json('POST', '/api/v1/rooms', ownerToken, {
    type: 'GROUP',
    name: 'Contract bot keyboard',
    memberIds: [made.bot.accountId],
  });
  const sent = await json('POST', `/bot/${made.token}/sendMessage`, undefined, {
    chat_id: keyboardRoom.id,
    text: 'Pick one',
    reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] },
  });
  const messages = await json('GET', `/api/v1/rooms/${keyboardRoom.id}/messages`, ownerToken);
  const keyboard = messages.find((m) => m.inlineKeyboard && m.text === sent.text);
  return { made, keyboardRoom, keyboard };
}

/**
 * The chat suite's bot: alice's room with it, whose keyboard the suite presses. It is not the bot suite's, so that the
 * two suites can run side by side: nothing the chat suite does to its bot, rooms or messages reaches the other.
 */
async function prepareChatBot(chatUrl, adminToken, aliceToken) {
  const { made, keyboardRoom, keyboard } = await botWithKeyboard(chatCalls(chatUrl), adminToken, aliceToken);
  return { botId: made.bot.id, roomId: keyboardRoom.id, keyboardRoomId: keyboardRoom.id, keyboardId: keyboard.id, callbackData: 'a' };
}

/**
 * The bot suite's bot, in rooms of an owner the chat suite never acts as: a room with a message, a keyboard and
 * presses, messages to edit, delete and pin, files, and rooms to leave.
 */
async function prepareBots(chatUrl, adminToken, ownerToken) {
  const json = chatCalls(chatUrl);
  const { made, keyboardRoom, keyboard } = await botWithKeyboard(json, adminToken, ownerToken);
  // Three rooms of the owner's with the bot, so that what one operation does cannot take away what another needs:
  // message ids are small numbers (each room's sequence), which generated ids hit. The first takes sends and
  // deletions, the second the messages to edit, the third the message with a keyboard that is pressed.
  const room = await json('POST', '/api/v1/rooms', ownerToken, { type: 'GROUP', name: 'Contract bots', memberIds: [made.bot.accountId] });
  const editRoom = await json('POST', '/api/v1/rooms', ownerToken, {
    type: 'GROUP',
    name: 'Contract bot edits',
    memberIds: [made.bot.accountId],
  });
  await json('POST', `/api/v1/rooms/${room.id}/messages`, ownerToken, { text: '/start' });
  // Presses to answer, and messages of the bot to edit and to delete: an answered press, a deleted message and an edit
  // to the same text are refused, so each operation draws from several (per operation, see botConfig).
  const presses = [];
  for (let i = 0; i < 200; i++)
    presses.push(
      (await json('POST', `/api/v1/rooms/${keyboardRoom.id}/messages/${keyboard.id}/callback`, ownerToken, { data: 'a' })).callbackQueryId,
    );
  const botSays = async (roomId, text) =>
    (await json('POST', `/bot/${made.token}/sendMessage`, undefined, { chat_id: roomId, text })).message_id;
  const editable = [await botSays(editRoom.id, 'edit me'), await botSays(editRoom.id, 'edit me too')];
  const withKeyboards = [];
  for (let i = 0; i < 100; i++)
    withKeyboards.push(
      (
        await json('POST', `/bot/${made.token}/sendMessage`, undefined, {
          chat_id: editRoom.id,
          text: `keyboard ${i}`,
          reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] },
        })
      ).message_id,
    );
  const deletable = [];
  for (let i = 0; i < 10; i++) deletable.push(await botSays(room.id, `delete me ${i}`));
  // A fourth room where the bot is an admin, for pins.
  const pinRoom = await json('POST', '/api/v1/rooms', ownerToken, {
    type: 'GROUP',
    name: 'Contract bot pins',
    memberIds: [made.bot.accountId],
  });
  await json('PATCH', `/api/v1/rooms/${pinRoom.id}/members/${made.bot.accountId}/role`, ownerToken, { role: 'ADMIN' });
  const pinnable = [await botSays(pinRoom.id, 'pin me')];
  const me = await json('GET', `/bot/${made.token}/getMe`);
  // A document and a photo (a PNG header is all the size reader needs) the bot sent in the sends room.
  const upload = async (method, field, blob, name, roomId = room.id) => {
    const form = new FormData();
    form.set('chat_id', roomId);
    if (roomId !== room.id) form.set('caption', 'caption me');
    form.set(field, blob, name);
    const res = await fetch(`${chatUrl}/bot${made.token}/${method}`, { method: 'POST', body: form });
    const parsed = await res.json();
    if (!parsed.ok) throw new Error(`bot setup: ${method}: ${res.status} ${JSON.stringify(parsed)}`);
    return parsed.result;
  };
  const document = (await upload('sendDocument', 'document', new Blob(['contract file'], { type: 'text/plain' }), 'contract.txt')).document
    .file_id;
  const png = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(png, 0);
  png.write('IHDR', 12, 'latin1');
  png.writeUInt32BE(4, 16);
  png.writeUInt32BE(3, 20);
  const photo = (await upload('sendPhoto', 'photo', new Blob([png]), 'contract.png')).photo[0].file_id;
  // A file with a caption among the messages to edit, for editMessageCaption.
  const captioned = [(await upload('sendDocument', 'document', new Blob(['captioned']), 'captioned.txt', editRoom.id)).message_id];
  // Rooms for leaveChat (each can be left once) and for deleteMessages (with messages of the bot to delete).
  const spareRoom = async (name) =>
    (await json('POST', '/api/v1/rooms', ownerToken, { type: 'GROUP', name, memberIds: [made.bot.accountId] })).id;
  const leaveRooms = [await spareRoom('Contract bot leaves'), await spareRoom('Contract bot leaves too')];
  const bulkRoom = await spareRoom('Contract bot bulk deletions');
  for (let i = 0; i < 10; i++) await botSays(bulkRoom, `bulk ${i}`);
  // Polls of the bot for stopPoll, in a room of their own (each is stopped once).
  const pollRoom = await spareRoom('Contract bot polls');
  const stoppable = [];
  for (let i = 0; i < 40; i++)
    stoppable.push(
      (await json('POST', `/bot/${made.token}/sendPoll`, undefined, { chat_id: pollRoom, question: `Poll ${i}?`, options: ['Yes', 'No'] }))
        .message_id,
    );
  // Rooms by uuid and by the chat id a bot is shown (answers carry the latter, and later cases may draw it).
  const chatIds = async (ids) => [
    ...ids,
    ...(await Promise.all(
      ids.map(async (id) => String((await json('POST', `/bot/${made.token}/getChat`, undefined, { chat_id: id })).id)),
    )),
  ];
  return {
    leaveRooms,
    bulkRooms: [bulkRoom],
    pollRooms: [pollRoom],
    stoppable,
    bulkChats: await chatIds([bulkRoom]),
    // The rooms the other operations need.
    keptChats: await chatIds([room.id, editRoom.id, keyboardRoom.id, pinRoom.id, pollRoom]),
    tokens: [made.token],
    rooms: [room.id],
    editRooms: [editRoom.id],
    presses,
    editable,
    captioned,
    withKeyboards,
    deletable,
    forwardable: [1],
    members: [me.id],
    pinRooms: [pinRoom.id],
    pinnable,
    files: [document, photo],
    photos: [photo],
    keyboardRoomId: keyboardRoom.id,
    // Kept from the chat suite's operations on bots and accounts (see chat-seed.mjs).
    botId: made.bot.id,
    accountIds: [made.bot.accountId],
  };
}

// Workspace operations with rules OpenAPI cannot state answer some schema-valid requests with 400 invalid_request
// naming the field; positive_data_acceptance accepts 400 on these only, each for the reason beside it.
const workspaceSemanticRejections = [
  // cursor must be a next_cursor this service issued for the same list.
  'listLeads',
  'listSvcKeys',
  'listSvcAuditLog',
  // custom_fields: at most 50 pairs, names of 1 to 100 characters.
  'createLead',
  // owner_id must name a member of the key's workspace.
  'updateLead',
  // name not all blank; ip_allow_list entries must parse as addresses or CIDR ranges; expires_at in the future.
  'createSvcKey',
  // Module families. cursor must be a next_cursor of the same list (attendance: from and to between 1970 and 9999).
  'listDeals',
  'listContacts',
  'listCompanies',
  'listQuotations',
  'listConversations',
  'listMessages',
  'listEmployees',
  'listAttendance',
  'listLeaves',
  'listTickets',
  'listTicketComments',
  'listApprovals',
  'listApprovalDecisions',
  // Ids in the body must name records of the key's workspace (contact_id, company_id, deal_id, conversation_id,
  // employee_id, manager_id) or members of it (owner_id, assignee_id, author_id, account_id, decided_by,
  // requested_by, approver_ids, distinct); dates must exist; instants not in the future, check_out after check_in;
  // end_date on or after start_date; terminated_on not before hire_date; author_id only on outbound messages.
  'convertLead',
  'createDeal',
  'updateDeal',
  'createContact',
  'updateContact',
  'createQuotation',
  'updateQuotation',
  'createConversation',
  'assignConversation',
  'createMessage',
  'createEmployee',
  'updateEmployee',
  'terminateEmployee',
  'createAttendance',
  'updateAttendance',
  'createLeave',
  'approveLeave',
  'rejectLeave',
  'createTicket',
  'updateTicket',
  'createTicketComment',
  'createApproval',
  // cursor as above; the URL's host must resolve to public addresses only; custom header names must be HTTP tokens
  // other than the delivery's own headers.
  'listWebhooks',
  'listWebhookDeliveries',
  'createWebhook',
  'updateWebhook',
  'listWorkspaceWebhooks',
  'listWorkspaceWebhookDeliveries',
  'createWorkspaceWebhook',
  'updateWorkspaceWebhook',
];

function workspaceConfig({ authFile, scopes, workspaces, keyIds, seeded }) {
  return [
    // Identities, tried in this order per operation: the key for the module families (the administration paths
    // refuse it with 403, which moves Schemathesis on), then alice, Owner of her own workspace, with her bearer JWT.
    // `key` and `peer` hold every scope in two workspaces: object_level_authorization replays the key's reads with
    // the peer, which must not be given them. Neither key belongs to alice's workspace, so her revocations cannot
    // cut the suite's own credentials.
    ...suiteRules,
    '[auth.wfc]',
    `path = ${toml(authFile)}`,
    `peers = ${toml(['key', 'peer'])}`,
    '',
    '[dictionaries.scopes]',
    `values = ${toml(scopes)}`,
    '',
    '[dictionaries.workspaces]',
    `values = ${toml(workspaces)}`,
    '',
    '[dictionaries.keys]',
    `values = ${toml(keyIds)}`,
    '',
    // Records of every family, members, webhooks and a delivery, seeded through the API (see workspace-seed.mjs); path.id
    // is bound per operation, since it names a different kind of record on each.
    ...dictionaryTables(seeded.dictionaries),
    '[parameters]',
    `"body.scopes[*]" = { dictionary = "scopes", probability = 0.7 }`,
    `"path.workspace_id" = { dictionary = "workspaces", probability = 0.5 }`,
    `"path.key_id" = { dictionary = "keys", probability = 0.5 }`,
    `"query.key_id" = { dictionary = "keys", probability = 0.5 }`,
    `"path.delivery_id" = { dictionary = "deliveries", probability = 0.5 }`,
    ...bindingLines(seeded.parameters),
    '',
    ...operationBlocks(workspaceSemanticRejections, seeded.operations),
  ].join('\n');
}

/**
 * Schemathesis prints its summary between rows of '=' in the style of pytest's closing line, which log readers
 * would take for a test run that executed nothing; those lines are passed on with the suite's name instead.
 */
function relay(stream, target, suite) {
  let buffered = '';
  stream.on('data', (chunk) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) target.write(`${rewrite(line, suite)}\n`);
  });
  stream.on('end', () => {
    if (buffered) target.write(`${rewrite(buffered, suite)}\n`);
  });
}

function rewrite(line, suite) {
  const banner = /^=+ (.*?) =+$/.exec(line);
  return banner ? `schemathesis (${suite}): ${banner[1]}` : line;
}

/** Output kept until flush(), then written whole (stdout's lines first). */
function bufferedOutput() {
  const kept = { stdout: [], stderr: [] };
  const sink = (name) => ({ write: (text) => kept[name].push(text) });
  return {
    stdout: sink('stdout'),
    stderr: sink('stderr'),
    flush() {
      process.stdout.write(kept.stdout.join(''));
      process.stderr.write(kept.stderr.join(''));
      kept.stdout.length = 0;
      kept.stderr.length = 0;
    },
  };
}

/** Operations, test cases, failures and errors from Schemathesis' JSON report. */
async function reportFigures(file) {
  let report;
  try {
    report = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    return { text: `no Schemathesis report (${err.message})`, passed: 0, failed: 1 };
  }
  const count = (list) => (Array.isArray(list) ? list.reduce((n, item) => n + (Number(item?.count) || 1), 0) : 0);
  const ops = report.operations ?? {};
  const cases = report.test_cases ?? {};
  const failed = count(report.failures) + count(report.errors);
  // Each warning kind lists the operations it names (or, for a few kinds, a map of them).
  const warned = Object.values(report.warnings ?? {}).reduce(
    (n, v) => n + (Array.isArray(v) ? v.length : v && typeof v === 'object' ? Object.keys(v).length : 0),
    0,
  );
  const text = [
    `${ops.tested ?? '?'}/${ops.selected ?? '?'} operations tested`,
    `${cases.generated ?? '?'} test cases`,
    `${count(report.failures)} failures`,
    `${count(report.errors)} errors`,
    `${warned} warnings`,
  ].join(', ');
  const generated = Number(cases.generated ?? 0);
  // The operations named by the warning kinds that fail a run ("METHOD /path").
  const unreached = [
    ...new Set(unreachedWarnings.flatMap((kind) => (Array.isArray(report.warnings?.[kind]) ? report.warnings[kind] : []))),
  ];
  return { text, passed: Math.max(generated - failed, 0), failed, unreached };
}

/** The operationIds of "METHOD /path" labels of an OpenAPI document. */
async function operationIds(specFile, labels) {
  const paths = JSON.parse(await readFile(specFile, 'utf8')).paths ?? {};
  return labels
    .map((label) => {
      const [method, path] = label.split(' ');
      return paths[path]?.[method.toLowerCase()]?.operationId;
    })
    .filter(Boolean);
}

/** One Schemathesis run; resolves to its exit code and the figures of its report. */
async function runSuite({
  name,
  specFile,
  baseUrl,
  workDir,
  auth,
  config,
  seedRows,
  examples,
  filter = [],
  onChild,
  runSeed = seed,
  out = { stdout: process.stdout, stderr: process.stderr },
}) {
  const dir = join(workDir, name);
  await mkdir(dir, { mode: 0o700 });
  const authFile = join(dir, 'auth.json');
  await writeFile(authFile, JSON.stringify({ auth }, null, 2), { mode: 0o600 });
  const configFile = join(dir, 'schemathesis.toml');
  // Rows the suite's dictionaries name, made through the API on the running platform.
  const seeded = seedRows ? await seedRows() : undefined;
  await writeFile(configFile, config(authFile, seeded));
  // Seeded values the hooks use: ids for the coverage phase, rows no case may destroy, and objects no dictionary can
  // hold (see hooks.py).
  const seededFile = join(dir, 'seeded.json');
  await writeFile(
    seededFile,
    JSON.stringify({
      coverage: seeded?.coverage ?? {},
      protect: seeded?.protect ?? {},
      objects: seeded?.objects ?? {},
      singleUse: seeded?.singleUse ?? {},
    }),
  );
  const reportFile = join(dir, 'report.json');
  const args = [
    '--config-file',
    configFile,
    'run',
    specFile,
    '--url',
    baseUrl,
    '--checks',
    'all',
    '--phases',
    'examples,coverage,fuzzing,stateful',
    '--max-examples',
    String(examples),
    '--seed',
    String(runSeed),
    '--workers',
    String(workers),
    '--request-timeout',
    '10',
    // Hypothesis' too_slow health check times the first draws of an operation on the wall clock: on a machine whose
    // cores the jest run and the typecheck share it failed a three-boolean body (Admin.ApiKeyCells). Speed lives in
    // benchmarks; the health checks that judge the schema itself (filter_too_much, data_too_large) stay on.
    '--suppress-health-check',
    'too_slow',
    '--generation-database',
    ':memory:',
    '--report',
    'json',
    '--report-json-path',
    reportFile,
    '--no-color',
    ...filter,
    ...(process.env.CONTRACT_EXTRA_ARGS ? process.env.CONTRACT_EXTRA_ARGS.split(' ') : []),
  ];
  out.stdout.write(
    `contract: ${name}: schemathesis on ${specFile.slice(root.length + 1)}, seed ${runSeed}, ${examples} examples per operation, ${workers} worker(s)\n`,
  );
  let child;
  const code = await new Promise((resolve, reject) => {
    child = spawn(schemathesis, args, {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SCHEMATHESIS_HOOKS: hooksFile, CONTRACT_SEEDED: seededFile },
    });
    onChild(child, true);
    relay(child.stdout, out.stdout, name);
    relay(child.stderr, out.stderr, name);
    child.once('error', reject);
    child.once('close', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  onChild(child, false);
  return { code, figures: await reportFigures(reportFile), seeded };
}

/**
 * A warning that an operation was never fuzzed past its gate is a judgement on one sample of cases: the answers to
 * generated ids and data, and to rows earlier cases changed. When a suite's only findings are such warnings, its
 * warned operations run once more, alone, with the next seed and the same seeded rows; the suite passes only if that
 * run reaches them without any finding. An operation that cannot be reached fails both runs.
 */
async function confirmUnreached(suite, first, options) {
  const { figures, seeded } = first;
  if (figures.failed > 0 || figures.unreached.length === 0) return undefined;
  const ids = await operationIds(suite.specFile, figures.unreached);
  if (ids.length !== figures.unreached.length) return undefined;
  options.out.stdout.write(
    `contract: ${suite.name}: warned it never reached ${figures.unreached.join(', ')}; running that again alone, seed ${seed + 1}\n`,
  );
  return runSuite({
    ...suite,
    ...options,
    name: `${suite.name}-confirm`,
    seedRows: async () => seeded,
    filter: ids.flatMap((id) => ['--include-operation-id', id]),
    runSeed: seed + 1,
  });
}

async function main() {
  for (const [file, hint] of [
    [mainJs, 'run `make build` first'],
    [devTokenJs, 'run `make build` first'],
    [devApiKeyJs, 'run `make build` first'],
    [devSvcKeyJs, 'run `make build` first'],
    [workspaceSpec, 'run `make generate` first'],
    [spec, 'run `make generate` first'],
    [partnerSpec, 'run `make generate` first'],
    [botSpec, 'run `make generate` first'],
    [schemathesis, 'run `make venv` first'],
  ]) {
    if (!existsSync(file)) fail(`${file} is missing; ${hint}`);
  }

  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)}s`;
  // The temp dir itself is DATA_DIR: as root, the platform opens it (not its parents) to PostgreSQL's own user.
  const dataDir = await mkdtemp(join(tmpdir(), 'chat-contract-'));
  const workDir = join(dataDir, 'schemathesis');
  const platform = new Platform(dataDir, await freePort(), await freePort(), await freePort());
  const schemathesisChildren = new Set();
  let interrupted = false;
  let exitCode = 1;
  const summaries = [];
  let passed = 0;
  let failed = 0;

  const onSignal = (signal) => {
    interrupted = true;
    log(`${signal} received; stopping`);
    for (const child of schemathesisChildren) child.kill(signal);
    // Cleanup runs in the finally below; a second signal exits at once.
    process.once(signal, () => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // Everything Schemathesis writes (auth documents, configs, reports) stays in here.
    await mkdir(workDir, { mode: 0o700 });
    log(`starting the platform on ${platform.url}, ${platform.partnerUrl} and ${platform.workspaceUrl} (data in ${dataDir})`);
    platform.start();
    try {
      await platform.waitReady(() => interrupted);
    } catch (err) {
      platform.dumpOutput('platform output');
      throw err;
    }
    log(`platform ready after ${elapsed()}`);

    // main.js writes the development signing key just after the listener is up; minting before that would make
    // each dev-token process create a key of its own.
    const keyFile = join(dataDir, 'dev-signing-key.json');
    for (let i = 0; i < 100 && !existsSync(keyFile); i++) await sleep(100);

    const [alice, bob, carol, gina, hank, ivy] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [adminToken, aliceToken, bobToken, carolToken, ginaToken, hankToken, ivyToken] = await Promise.all([
      devToken(dataDir, ['--platform-admin']),
      devToken(dataDir, ['--account', alice, '--name', 'Alice']),
      devToken(dataDir, ['--account', bob, '--name', 'Bob']),
      devToken(dataDir, ['--account', carol, '--name', 'Carol']),
      // gina and hank only answer contact requests of the chat seed (a decline and a removal)
      devToken(dataDir, ['--account', gina, '--name', 'Gina']),
      devToken(dataDir, ['--account', hank, '--name', 'Hank']),
      // ivy owns the bot suite's rooms: no suite acts as her, so the chat suite cannot change them.
      devToken(dataDir, ['--account', ivy, '--name', 'Ivy']),
    ]);
    const bearer = (name, token) => ({ name, fixedHeaders: [{ name: 'Authorization', value: `Bearer ${token}` }] });
    const apiKey = (name, key) => ({ name, fixedHeaders: [{ name: 'X-Api-Key', value: key }] });

    // Every CRM scope; keys of two workspaces for the object-level check; alice owns a business workspace of her
    // own so that her key-management calls can succeed; a separate key for the suite that revokes it.
    const crmScopes = [
      'crm_leads:*',
      'crm_deals:*',
      'crm_contacts:*',
      'crm_companies:*',
      'crm_activities:*',
      'crm_invoices:read',
      'crm_quotations:read',
      'crm_payments:read',
      'crm_products:read',
      'crm_subscriptions:read',
      'webhooks:*',
      'conversations:*',
      'messages:*',
      'channels:*',
      'kb:*',
      'ai:*',
      'agents:*',
    ].join(',');
    const [key, peer, revocable, aliceKey] = [
      await devApiKey(dataDir, ['--workspace', 'Contract', '--scopes', crmScopes]),
      await devApiKey(dataDir, ['--workspace', 'Contract peer', '--scopes', crmScopes]),
      await devApiKey(dataDir, ['--workspace', 'Contract revocation', '--scopes', 'crm_leads:read']),
      await devApiKey(dataDir, ['--workspace', 'Alice', '--owner', alice, '--scopes', 'crm_leads:read']),
    ];
    const partnerGet = (path, apiKeyValue) =>
      fetch(`${platform.partnerUrl}${path}`, { headers: { 'x-api-key': apiKeyValue } }).then((r) => r.json());
    const catalogue = await partnerGet('/api/v1/partner/crm/_scopes', key);
    // The workspaces alice creates while fuzzed are on the free plan; hers on the business plan lets key
    // management answer 201 too.
    const aliceWorkspace = (await partnerGet('/api/v1/partner/crm/_me', aliceKey)).tenant_id;
    // A workspace of its own for the chat suite's plan administration, whose fuzzed plans limit no other suite.
    const planKey = await devApiKey(dataDir, ['--workspace', 'Contract plan administration', '--scopes', 'crm_leads:read']);
    const planWorkspace = (await partnerGet('/api/v1/partner/crm/_me', planKey)).tenant_id;
    const catalogueScopes = catalogue.scopes.map((x) => x.id);
    const cataloguePresets = catalogue.presets.map((x) => x.id);

    // Workspace API: keys with every scope of the catalogue in two workspaces on an enterprise contract whose limits
    // no run reaches (every request comes from 127.0.0.1 and one workspace); alice owns a third workspace for the
    // administration operations, whose key ids feed the key_id parameters.
    const svcScopes = (await fetch(`${platform.workspaceUrl}/api/v1/scopes`).then((r) => r.json())).items.map((x) => x.scope);
    const unlimited = ['--plan', 'enterprise', '--rate-per-hour', '1000000000', '--rate-per-minute', '100000000'];
    const [svcKey, svcPeer] = [
      // bob owns the key's workspace; the workspace seed makes carol a member too (fields that name members).
      await devSvcKey(dataDir, ['--workspace', 'Contract B', '--owner', bob, '--scopes', svcScopes.join(','), ...unlimited]),
      await devSvcKey(dataDir, ['--workspace', 'Contract B peer', '--scopes', svcScopes.join(','), ...unlimited]),
    ];
    await devSvcKey(dataDir, ['--workspace', 'Alice B', '--owner', alice, '--scopes', 'read-only', ...unlimited]);
    const aliceWorkspaces = await fetch(`${platform.partnerUrl}/api/v1/workspaces?limit=100`, {
      headers: { authorization: `Bearer ${aliceToken}` },
    }).then((r) => r.json());
    const aliceSvcWorkspace = aliceWorkspaces.data.find((w) => w.name === 'Alice B').id;
    const aliceSvcKeys = await fetch(`${platform.workspaceUrl}/api/v1/workspaces/${aliceSvcWorkspace}/svc-keys`, {
      headers: { authorization: `Bearer ${aliceToken}` },
    }).then((r) => r.json());
    const bearerSvc = (name, value) => ({ name, fixedHeaders: [{ name: 'Authorization', value: `Bearer ${value}` }] });
    const bots = await prepareBots(platform.url, adminToken, ivyToken);
    const chatBot = await prepareChatBot(platform.url, adminToken, aliceToken);
    // One webhook per API for the operations below /webhooks/{id} (its host does not resolve: saved Unverified).
    const hookBody = JSON.stringify({ name: 'Contract', url: 'https://hooks.example.invalid/in', events: ['lead.created'] });
    const svcHook = await fetch(`${platform.workspaceUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svcKey}`, 'content-type': 'application/json' },
      body: hookBody,
    }).then((r) => r.json());
    const partnerHook = await fetch(`${platform.partnerUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
      body: hookBody,
    }).then((r) => r.json());

    const allSuites = [
      {
        name: 'bot',
        specFile: botSpec,
        baseUrl: platform.url,
        auth: [],
        // Nothing to make: the bot, its room and a press were made above. The coverage phase draws no dictionary
        // values, so its valid cases get the bot's token and room from here (see hooks.py).
        seedRows: async () => ({
          // Ids captured from answers (an edit's, getUpdates') would let deleteMessage take the messages kept for
          // editing and the keyboard, and an edit replace the keyboard whose presses are answered.
          protect: {
            deleteMessage: [{ chat_id: [bots.editRooms[0], bots.keyboardRoomId] }],
            editMessage: [{ chat_id: [bots.keyboardRoomId] }],
            editMessageText: [{ chat_id: [bots.keyboardRoomId] }],
            editMessageReplyMarkup: [{ chat_id: [bots.keyboardRoomId] }],
            editMessageCaption: [{ chat_id: [bots.keyboardRoomId] }],
            // Values drawn for one operation reach others too: the room of bulk deletions is kept from leaveChat.
            leaveChat: [{ chat_id: [...bots.keptChats, ...bots.bulkChats] }],
            deleteMessages: [{ chat_id: bots.keptChats }],
          },
          // A press is answered once: each case that names one gets the next one not handed out yet (see hooks.py).
          singleUse: { answerCallbackQuery: { callback_query_id: bots.presses } },
          // Albums of files the bot sent, for half of the valid cases of sendMediaGroup: generated items name no file
          // the bot can see (see hooks.py, "objects").
          objects: {
            sendMediaGroup: {
              media: [
                [
                  { type: 'document', media: bots.files[0] },
                  { type: 'document', media: bots.files[0], caption: 'second' },
                ],
                [
                  { type: 'photo', media: bots.photos[0] },
                  { type: 'video', media: bots.files[0] },
                  { type: 'photo', media: bots.photos[0] },
                ],
              ],
            },
          },
          coverage: {
            parameters: { 'path.token': bots.tokens[0], 'body.chat_id': bots.rooms[0], 'body.callback_query_id': bots.presses[0] },
            operations: {
              editMessage: { 'body.chat_id': bots.editRooms[0], 'body.message_id': bots.editable[0] },
              editMessageText: { 'body.chat_id': bots.editRooms[0], 'body.message_id': bots.editable[1] },
              editMessageReplyMarkup: { 'body.chat_id': bots.editRooms[0], 'body.message_id': bots.withKeyboards[0] },
              editMessageCaption: { 'body.chat_id': bots.editRooms[0], 'body.message_id': bots.captioned[0] },
              setMessageReaction: { 'body.message_id': bots.forwardable[0] },
              deleteMessage: { 'body.message_id': bots.deletable[0] },
              forwardMessage: { 'body.from_chat_id': bots.rooms[0], 'body.message_id': bots.forwardable[0] },
              copyMessage: { 'body.from_chat_id': bots.rooms[0], 'body.message_id': bots.forwardable[0] },
              getChatMember: { 'body.user_id': bots.members[0] },
              pinChatMessage: { 'body.chat_id': bots.pinRooms[0], 'body.message_id': bots.pinnable[0] },
              unpinChatMessage: { 'body.chat_id': bots.pinRooms[0], 'body.message_id': bots.pinnable[0] },
              sendDocument: { 'body.document': bots.files[0] },
              sendPhoto: { 'body.photo': bots.photos[0] },
              getFile: { 'body.file_id': bots.files[0] },
              ...Object.fromEntries(Object.entries(mediaMethods).map(([field, method]) => [method, { [`body.${field}`]: bots.files[0] }])),
              // An album of two documents the bot sent (the whole list: its items are objects).
              sendMediaGroup: {
                'body.media': [
                  { type: 'document', media: bots.files[0] },
                  { type: 'document', media: bots.files[0] },
                ],
              },
              leaveChat: { 'body.chat_id': bots.leaveRooms[0] },
              deleteMessages: { 'body.chat_id': bots.bulkRooms[0] },
              setChatTitle: { 'body.chat_id': bots.pinRooms[0] },
              setChatDescription: { 'body.chat_id': bots.pinRooms[0] },
              stopPoll: { 'body.chat_id': bots.pollRooms[0], 'body.message_id': bots.stoppable[0] },
            },
          },
        }),
        config: () => botConfig(bots),
        examples: botMaxExamples,
      },
      {
        name: 'partner',
        specFile: partnerSpec,
        baseUrl: platform.partnerUrl,
        auth: [bearer('alice', aliceToken), apiKey('key', key), bearer('admin', adminToken), apiKey('peer', peer)],
        seedRows: () =>
          seedPartner({
            baseUrl: platform.partnerUrl,
            root,
            dataDir,
            key,
            aliceToken,
            aliceWorkspace,
            accounts: { bob, carol },
            webhook: partnerHook.id,
            delivery: partnerHook.ping.delivery_id,
          }),
        config: (authFile, seeded) =>
          partnerConfig({ authFile, scopes: catalogueScopes, presets: cataloguePresets, workspaces: [aliceWorkspace], seeded }),
        examples: partnerMaxExamples,
        // A key that revokes itself would turn every later case of the suite into a 401: that operation runs alone.
        filter: ['--exclude-operation-id', 'revokeCurrentApiKey'],
      },
      {
        name: 'chat',
        specFile: spec,
        baseUrl: platform.url,
        auth: [bearer('alice', aliceToken), bearer('bob', bobToken), bearer('admin', adminToken)],
        seedRows: () =>
          seedChat({
            baseUrl: platform.url,
            tokens: { alice: aliceToken, bob: bobToken, carol: carolToken, gina: ginaToken, hank: hankToken, admin: adminToken },
            accounts: { alice, bob, carol, gina, hank },
            bots: chatBot,
            fenced: { botId: bots.botId, accountIds: [...bots.accountIds, ivy] },
            planWorkspace,
          }),
        config: (authFile, seeded) => schemathesisConfig({ authFile, accounts: [bob, carol], seeded }),
        examples: maxExamples,
      },
      {
        name: 'workspace',
        specFile: workspaceSpec,
        baseUrl: platform.workspaceUrl,
        auth: [bearerSvc('key', svcKey), bearer('alice', aliceToken), bearerSvc('peer', svcPeer)],
        seedRows: () =>
          seedWorkspace({
            baseUrl: platform.workspaceUrl,
            partnerUrl: platform.partnerUrl,
            chatUrl: platform.url,
            adminToken,
            svcKey,
            bobToken,
            aliceToken,
            accounts: { bob, carol },
            aliceWorkspace: aliceSvcWorkspace,
            aliceKeyIds: aliceSvcKeys.items.map((k) => k.id),
            webhook: svcHook.id,
            delivery: svcHook.ping.delivery_id,
          }),
        config: (authFile, seeded) =>
          workspaceConfig({
            authFile,
            scopes: svcScopes,
            workspaces: [aliceSvcWorkspace],
            keyIds: aliceSvcKeys.items.map((k) => k.id),
            seeded,
          }),
        examples: workspaceMaxExamples,
      },
      {
        name: 'partner-revocation',
        specFile: partnerSpec,
        baseUrl: platform.partnerUrl,
        auth: [apiKey('key', revocable)],
        config: (authFile) =>
          partnerConfig({ authFile, scopes: catalogueScopes, presets: cataloguePresets, workspaces: [aliceWorkspace] }).replace(
            /^peers = .*$/m,
            '',
          ),
        examples: partnerMaxExamples,
        filter: ['--include-operation-id', 'revokeCurrentApiKey'],
      },
    ];
    const unknownSuites = onlySuites.filter((name) => !allSuites.some((suite) => suite.name === name));
    if (unknownSuites.length > 0) throw new Error(`CONTRACT_SUITES names unknown suites: ${unknownSuites.join(', ')}`);
    const suites = allSuites.filter((suite) => onlySuites.length === 0 || onlySuites.includes(suite.name));
    exitCode = 0;
    const onChild = (child, running) => (running ? schemathesisChildren.add(child) : schemathesisChildren.delete(child));
    const runOne = async (suite, out) => {
      const options = { workDir, onChild, out };
      const first = await runSuite({ ...suite, ...options });
      const confirmed = first.code !== 0 && !interrupted ? await confirmUnreached(suite, first, options) : undefined;
      const code = confirmed ? confirmed.code : first.code;
      if (code !== 0) exitCode = 1;
      passed += first.figures.passed + (confirmed?.figures.passed ?? 0);
      failed += first.figures.failed + (confirmed?.figures.failed ?? 0);
      summaries.push(
        `contract: ${suite.name}: ${code === 0 ? 'PASSED' : 'FAILED'}: ${first.figures.text} (schemathesis exit ${first.code})`,
      );
      if (confirmed) {
        summaries.push(
          `contract: ${suite.name}: warned operations run again alone: ${confirmed.code === 0 ? 'reached' : 'NOT reached'}: ${confirmed.figures.text} (schemathesis exit ${confirmed.code})`,
        );
      }
    };
    // Each lane takes the next suite of the list when it is free; each suite's output is printed whole when it ends,
    // so that two runs' lines do not interleave. The bot suite's bot and rooms are fenced off from the chat suite (see
    // prepareBots), so those two may run side by side; the order of the list keeps workspace after partner.
    const queue = [...suites];
    // A lane that fails with an error (not a finding) stops the others: the run has failed either way.
    const stopOthers = (err) => {
      interrupted = true;
      for (const child of schemathesisChildren) child.kill('SIGTERM');
      throw err;
    };
    const settled = await Promise.allSettled(
      Array.from({ length: Math.min(lanes, queue.length) }, async (_, lane) => {
        for (let suite = queue.shift(); suite && !interrupted; suite = queue.shift()) {
          const out = lanes > 1 ? bufferedOutput() : undefined;
          if (out) log(`${suite.name}: started (lane ${lane + 1}, ${elapsed()})`);
          try {
            await runOne(suite, out ?? { stdout: process.stdout, stderr: process.stderr });
          } catch (err) {
            stopOthers(err);
          } finally {
            out?.flush();
          }
        }
      }),
    );
    const laneError = settled.find((result) => result.status === 'rejected');
    if (laneError) throw laneError.reason;
    if (interrupted) exitCode = 1;
    if (exitCode !== 0) platform.dumpOutput('platform output (tail), for server-side errors');
  } catch (err) {
    process.stderr.write(`contract: ${err?.stack ?? err}\n`);
    exitCode = 1;
    failed += 1;
    summaries.push(`contract: FAILED: ${err?.message ?? err}`);
  } finally {
    await platform.stop();
    if (!process.env.CONTRACT_KEEP_DATA)
      await rm(dataDir, { recursive: true, force: true }).catch((err) => log(`could not remove ${dataDir}: ${err.message}`));
  }
  // The closing line in the plain "N passed, N failed" form that log readers look for.
  process.stdout.write(`${summaries.join('\n')}\ncontract: seed ${seed}, ${elapsed()}\ncontract: ${passed} passed, ${failed} failed\n`);
  process.exit(exitCode);
}

await main();
