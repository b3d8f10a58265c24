// One example bot of a library's source distribution, run as shipped (./launch.py changes only its token and API
// root) in a process of its own, with a fresh working directory for the files it keeps.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where `make bot-libraries` unpacks the pinned sdists' examples. */
const examplesRoot = path.join('.tools', 'bot-examples');
export const ptbExamples = path.join(examplesRoot, 'python_telegram_bot-22.8', 'examples');
export const aiogramExamples = path.join(examplesRoot, 'aiogram-3.31.0', 'examples');

/** An example file of each library by its name. */
export const ptbExample = (name: string): string => path.join(ptbExamples, `${name}.py`);
export const aiogramExample = (name: string): string => path.join(aiogramExamples, `${name}.py`);

export interface RunningExample {
  /** The example's working directory (its persistence files, what it downloads). */
  workdir: string;
  /** Every line the example logged so far (stdout and stderr). */
  log: string[];
  /** The lines that report a failure: logged errors and tracebacks. */
  errors(): string[];
  /** Waits until a line of the log matches. */
  logged(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

const failure = /\bERROR\b|Traceback/;

/**
 * Starts the example file and resolves once it asks for updates; rejects with its log if it exits before that. In a
 * working directory given by the caller (a restart over the files of an earlier run), the caller removes it.
 */
export function runExample(file: string, token: string, apiRoot: string, given?: string): Promise<RunningExample> {
  if (!existsSync(file)) throw new Error(`${file} is missing: run make bot-libraries`);
  const workdir = given ?? mkdtempSync(path.join(tmpdir(), 'example-bot-'));
  const child = spawn(
    path.resolve('.tools', 'venv', 'bin', 'python'),
    [path.resolve('test', 'integration', 'bots', 'examples', 'launch.py'), path.resolve(file)],
    {
      cwd: workdir,
      env: { ...process.env, BOT_TOKEN: token, API_ROOT: apiRoot, PYTHONUNBUFFERED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const log: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise<RunningExample>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      const lines = chunk.toString().split('\n').filter(Boolean);
      log.push(...lines);
      if (lines.includes('polling'))
        resolve({
          workdir,
          log,
          errors: () => log.filter((line) => failure.test(line)),
          logged: (pattern, timeoutMs = 10_000) => logLine(log, pattern, timeoutMs),
          stop: async () => {
            child.kill('SIGTERM');
            const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
            await exited;
            clearTimeout(timer);
            if (!given) rmSync(workdir, { recursive: true, force: true });
          },
        });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => reject(new Error(`${path.basename(file)} exited (${code}) before polling:\n${log.join('\n')}`)));
  });
}

async function logLine(log: string[], pattern: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = log.find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`nothing logged matching ${pattern} within ${timeoutMs} ms:\n${log.join('\n')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
