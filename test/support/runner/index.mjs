// Jest's test runner for this repository: `maxWorkers` long-lived node processes (test/support/runner/
// file-process.mjs), each running one file at a time on infrastructure of the file's own. A process loads the
// platform's modules once and keeps them for the files after, where Jest's own runner loads them again for every file
// in a fresh module registry; that load and the schema compilation that comes with it were a third of a file's CPU.
// A process whose memory passes the limit after a file is replaced by a fresh one; one that dies fails its file.
import { fork } from 'node:child_process';

const processScript = new URL('./file-process.mjs', import.meta.url);
// Registered before the process loads anything, so that its static imports of TypeScript resolve too.
const typescriptHooks = new URL('./typescript-hooks.mjs', import.meta.url).href;
// Above this resident size after a file, the process is replaced (the heap of a long-lived process grows);
// TEST_PROCESS_RSS_LIMIT_MB sets another (the runner's own test replaces a process after every file).
const rssLimit = Number(process.env.TEST_PROCESS_RSS_LIMIT_MB ?? 1536) * 1024 ** 2;

class TestProcess {
  constructor() {
    this.child = fork(processScript, [], { serialization: 'advanced', execArgv: ['--import', typescriptHooks], stdio: 'inherit' });
    this.ready = new Promise((resolve, reject) => {
      this.child.once('message', resolve);
      this.child.once('exit', (code) => reject(new Error(`a test process exited with ${code} before it was ready`)));
    });
    // Only run() awaits it: a process stopped before it was ever asked to run a file is no failure.
    this.ready.catch(() => undefined);
  }

  async run(path, projectConfig, globalConfig) {
    await this.ready;
    return new Promise((resolve, reject) => {
      const onExit = (code, signal) => {
        this.dead = true;
        reject(new Error(`the test process running ${path} exited (${signal ?? code})`));
      };
      const onMessage = (message) => {
        this.child.off('exit', onExit);
        this.child.off('message', onMessage);
        if (message.type === 'result') {
          this.worn = message.rss > rssLimit;
          resolve(message.result);
        } else {
          reject(Object.assign(new Error(message.error.message), { stack: message.error.stack }));
        }
      };
      this.child.on('exit', onExit);
      this.child.on('message', onMessage);
      this.child.send({ type: 'run', path, projectConfig, globalConfig });
    });
  }

  stop() {
    if (!this.dead) this.child.kill('SIGTERM');
    this.dead = true;
  }
}

export default class FileProcessRunner {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
  }

  async runTests(tests, _watcher, onStart, onResult, onFailure) {
    const queue = [...tests];
    const lane = async () => {
      let worker;
      try {
        for (let test = queue.shift(); test; test = queue.shift()) {
          worker ??= new TestProcess();
          await onStart(test);
          try {
            await onResult(test, await worker.run(test.path, test.context.config, this.globalConfig));
          } catch (error) {
            await onFailure(test, { message: error.message, stack: error.stack });
          }
          if (worker.dead || worker.worn) {
            // The next file gets a fresh one; none is started when no file is left for it.
            worker.stop();
            worker = undefined;
          }
        }
      } finally {
        worker?.stop();
      }
    };
    const lanes = Math.max(1, Math.min(this.globalConfig.maxWorkers, tests.length));
    await Promise.all(Array.from({ length: lanes }, lane));
  }
}
