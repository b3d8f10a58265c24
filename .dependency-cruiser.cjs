// The layers of src/, from top to bottom: the composition root (src/main.ts, src/app/, src/cli/), the interfaces
// (src/chat/, src/partner/, src/workspace/), the shared core both conventions and the chat use (src/core/), and the
// platform (src/platform/, its settings in src/platform/config/). A layer imports only from the layers below it; interfaces never import
// each other, in their tests too (a test that needs another interface's rows uses test/support fixtures). Tests of the
// platform and the core may start whole platforms, so those two rules skip *.test.ts files.
const test = '\\.test\\.ts$';
const interfaces = ['chat', 'partner', 'workspace'];

const interfaceRules = interfaces.map((name) => ({
  name: `${name}-imports-no-other-interface`,
  comment: `src/${name}/ may use src/core/ and src/platform/, never another interface or the composition root`,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: { path: `^src/(${[...interfaces.filter((other) => other !== name), 'app', 'cli'].join('|')})/|^src/main\\.ts$` },
}));

// Inside each of these layers, its folders (and top-level files) line by line from the bottom up: a folder imports
// only folders on the lines before its own, never one on its own line or after, so no two folders can import each
// other, even through others. Each interface's base (tables, entities, request context, errors, access checks) is the first line and
// imports no feature. A folder that is not listed fails the unlisted-folder rule: place it on a line first.
const folderLayers = {
  chat: [
    ['base', 'events'],
    ['admin-modules', 'admin-workspaces', 'auth', 'broadcasts', 'contacts', 'drafts', 'health', 'media', 'polls', 'presence', 'threads'],
    ['labels', 'mentions', 'rooms', 'saved', 'search'],
    ['channels', 'members', 'messages', 'realtime'],
    ['accounts', 'expiry', 'pins', 'receipts', 'scheduled'],
    ['bots', 'erasure', 'exports', 'reminders', 'retention'],
    ['listener', 'time'],
  ],
  partner: [
    ['base', 'scopes'],
    ['crm', 'idempotency', 'inbox', 'kb', 'reports', 'storage', 'webhooks', 'workspaces'],
    ['ai', 'api-keys'],
    ['gate'],
    ['listener'],
  ],
  workspace: [
    ['base'],
    ['crm', 'health', 'scopes'],
    ['approvals', 'hr', 'inbox', 'keys', 'tickets'],
    ['audit', 'notifications', 'webhooks'],
    ['gate'],
    ['listener'],
  ],
  core: [
    ['accounts', 'entities', 'events', 'keys', 'media', 'modules'],
    ['tables'],
    ['auth', 'crm'],
    ['inbox', 'workspaces'],
    ['webhooks'],
  ],
  platform: [
    [
      'clock',
      'concurrency',
      'counter-lifetime',
      'dependency-timeouts',
      'ids',
      'json-depth',
      'log-redaction',
      'redis-target',
      'unicode',
      'worker-close',
    ],
    ['config', 'logger'],
    ['local-drain', 'metrics', 'queue-errors', 'redis-deadline'],
    ['redis'],
    ['db', 'invalidation', 'leased-counter', 'rate-limit'],
    ['cursor-secret', 'infra', 'node-cache', 'outbox-metrics', 'outbox-writer', 'readiness', 'tracing'],
    ['cluster', 'gate-key-cache', 'http', 'outbox'],
    ['queues'],
  ],
};
// The core's accounts/ and modules/ hold only their entities, so they belong to its base as entities/ and tables.ts do.
// The chat's events/ (its topics and the emit every feature calls) imports nothing of the chat, so it belongs to its base.
const bases = { chat: ['base', 'events'], partner: ['base'], workspace: ['base'], core: ['accounts', 'entities', 'modules', 'tables'] };
const units = (top, names) => `^src/${top}/(${names.join('|')})(/|\\.ts$)`;

const folderRules = Object.entries(folderLayers).flatMap(([top, layers]) => [
  ...layers.map((layer, index) => ({
    name: `${top}-folder-order`,
    comment: `src/${top}/: a folder imports only folders on the lines before its own in folderLayers (no folder cycles)`,
    severity: 'error',
    from: { path: units(top, layer), pathNot: test },
    to: { path: units(top, layers.slice(index).flat()), pathNot: `^src/${top}/$1(/|\\.ts$)` },
  })),
  {
    name: `${top}-unlisted-folder`,
    comment: `every folder of src/${top}/ has its place in folderLayers, so the folder-order rules see it`,
    severity: 'error',
    from: { path: `^src/${top}/`, pathNot: [units(top, layers.flat()), test] },
    to: {},
  },
]);

const baseRules = Object.entries(bases).map(([top, base]) => ({
  name: `${top}-base-imports-no-feature`,
  comment: `the base of src/${top}/ (${base.join(', ')}) sits under every feature, so it imports none of them`,
  severity: 'error',
  from: { path: units(top, base), pathNot: test },
  to: { path: `^src/${top}/`, pathNot: units(top, base) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'modules that import each other (directly or through others) cannot be read or tested one at a time',
      severity: 'error',
      from: { path: '^src/', pathNot: test },
      to: { circular: true },
    },
    {
      name: 'platform-imports-no-feature',
      comment: 'src/platform/ serves every feature and knows none: features register their jobs, consumers and logs',
      severity: 'error',
      from: { path: '^src/platform/', pathNot: test },
      to: { path: '^src/(app|cli|core|chat|partner|workspace)/|^src/main\\.ts$' },
    },
    {
      name: 'core-imports-no-interface',
      comment: 'src/core/ is shared by the interfaces, so it imports none of them',
      severity: 'error',
      from: { path: '^src/core/', pathNot: test },
      to: { path: '^src/(app|cli|chat|partner|workspace)/|^src/main\\.ts$' },
    },
    ...interfaceRules,
    ...folderRules,
    ...baseRules,
    {
      name: 'no-test-code-in-product',
      comment: 'product code never imports test support',
      severity: 'error',
      from: { path: '^src/', pathNot: test },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|generated/openapi|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
