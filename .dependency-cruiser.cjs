// The layers of src/, from top to bottom: the composition root (src/main.ts, src/app/, src/cli/), the interfaces
// (src/chat/, src/partner/, src/workspace/), the shared core both conventions and the chat use (src/core/), and the
// platform (src/platform/, src/config.ts). A layer imports only from the layers below it; interfaces never import
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
      from: { path: '^src/(platform/|config\\.ts$)', pathNot: test },
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
