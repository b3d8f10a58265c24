// The spec's error-code enums are written from the catalogue modules in src/ (src/<interface>/base/error-codes.ts),
// so a code is added in one place: a line in the catalogue, then `make generate` (and a row in the docs). Lists may
// spread other lists they import or define themselves (`...frameworkErrorCodes`); line comments are ignored.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const catalogues = [
  {
    source: 'src/chat/base/error-codes.ts',
    list: 'chatErrorCodes',
    target: 'spec/common/chat-error-codes.tsp',
    namespace: 'Platform.Chat.Envelope',
    name: 'ChatErrorCode',
    doc: 'docs/errors.md',
  },
  {
    source: 'src/partner/base/error-codes.ts',
    list: 'partnerErrorCodes',
    target: 'spec/partner/error-codes.tsp',
    namespace: 'Platform.Partner',
    name: 'PartnerErrorCode',
    doc: 'docs/partner.md',
  },
  {
    source: 'src/workspace/base/error-codes.ts',
    list: 'workspaceErrorCodes',
    target: 'spec/workspace/error-codes.tsp',
    namespace: 'Platform.Workspace',
    name: 'WorkspaceErrorCode',
    doc: 'docs/workspace.md',
  },
];

function codesOf(root, file, list) {
  const text = readFileSync(join(root, file), 'utf8').replace(/\/\/.*$/gm, '');
  const start = text.indexOf(`export const ${list} = [`);
  if (start < 0) throw new Error(`${file} does not export the list ${list}`);
  const body = text.slice(start, text.indexOf('] as const', start));
  const codes = [];
  for (const m of body.matchAll(/'([a-z][a-z0-9_]*)'|\.\.\.(\w+)/g)) {
    if (m[1]) {
      codes.push(m[1]);
      continue;
    }
    if (text.includes(`export const ${m[2]} = [`)) {
      codes.push(...codesOf(root, file, m[2]));
      continue;
    }
    const from = text.match(new RegExp(`import \\{[^}]*\\b${m[2]}\\b[^}]*\\} from '([^']+)\\.js'`));
    if (!from) throw new Error(`${file}: cannot find where ${m[2]} comes from`);
    codes.push(...codesOf(root, relative(root, join(root, dirname(file), `${from[1]}.ts`)), m[2]));
  }
  return codes;
}

/** The content of each enum file, by its path relative to the repository root. */
export function errorCodeEnums(root) {
  const files = {};
  for (const c of catalogues) {
    const codes = codesOf(root, c.source, c.list);
    files[c.target] =
      `// Written by scripts/generate.mjs from ${c.source}; edit the list there, then run \`make generate\`.\n` +
      `namespace ${c.namespace};\n\n` +
      `@doc("A stable snake_case error code; each is described in ${c.doc}.")\n` +
      `enum ${c.name} {\n${codes.map((code) => `  ${code},\n`).join('')}}\n`;
  }
  return files;
}
