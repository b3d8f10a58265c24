// The run's folder (TEST_RUN_DIR, made by the global setup): each file's redis-server folder and the files' times.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Folder of one file's redis-server under the run's folder; its pid file is how the global teardown finds it. */
export const redisDirOf = (runDir, id) => join(runDir, 'files', id);

/** Each file's wall and process CPU seconds, one line per file; the global teardown prints the costliest. */
export const fileTimesOf = (runDir) => join(runDir, 'file-times.tsv');

/** Stops the redis-servers of files whose test process was killed before the file's teardown ran. */
export function stopLeftoverRedisServers(runDir) {
  if (!runDir) return;
  const files = join(runDir, 'files');
  mkdirSync(files, { recursive: true });
  for (const id of readdirSync(files)) {
    try {
      const pid = Number(readFileSync(join(files, id, 'redis', 'redis-server.pid'), 'utf8'));
      if (pid > 0) process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
