#!/usr/bin/env node
// `make typecheck` and `make lint` in one process, on one TypeScript program: the compiler's diagnostics of
// tsconfig.json, then ESLint (eslint.config.js) on src, test and sdk with that program as its type information, so the
// sources are parsed and type-checked once instead of twice (make test runs this; the two targets still run alone).
// Exit status 1 when either reports an error.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function programOf(configPath) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  return { program, configErrors: parsed.errors };
}

function typecheck(program, configErrors) {
  const diagnostics = [...configErrors, ...ts.getPreEmitDiagnostics(program)];
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
    process.stdout.write(format(diagnostics, host));
    process.stdout.write(`\ntypecheck: ${diagnostics.length} error(s)\n`);
  }
  return diagnostics.length === 0;
}

async function lint(program) {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, programs: [program] } } },
  });
  const results = await eslint.lintFiles(['src', 'test', 'sdk']);
  const formatter = await eslint.loadFormatter('stylish');
  const text = await formatter.format(results);
  if (text) process.stdout.write(text);
  return results.every((result) => result.errorCount === 0);
}

const { program, configErrors } = programOf(join(root, 'tsconfig.json'));
const typed = typecheck(program, configErrors);
const linted = await lint(program);
process.exit(typed && linted ? 0 : 1);
