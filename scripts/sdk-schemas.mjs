// Writes each SDK's src/schema.ts from generated/types/<name>.ts, the one committed copy of the generated types.
// The copies are git-ignored build inputs: `make deps` (so typecheck, jest and the console build), `make generate`
// and each SDK's prebuild (so `make sdks` and `npm pack`) write them. A copy is rewritten only when it differs, so
// builds that compare times see no change.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The SDK folders whose schema is the generated types of the document of the same name. */
export const sdkSchemas = ['bot', 'chat', 'partner', 'workspace'];

export async function writeSdkSchemas(names = sdkSchemas) {
  for (const name of names) {
    const types = await readFile(join(root, 'generated/types', `${name}.ts`), 'utf8');
    const target = join(root, 'sdk', name, 'src/schema.ts');
    const current = await readFile(target, 'utf8').catch(() => null);
    if (current === types) continue;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, types);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  for (const name of names) {
    if (!sdkSchemas.includes(name)) throw new Error(`no SDK schema named ${name} (known: ${sdkSchemas.join(', ')})`);
  }
  await writeSdkSchemas(names.length > 0 ? names : sdkSchemas);
}
