import { rm } from 'node:fs/promises';
import { stopLeftoverRedisServers } from './isolated-environment.mjs';

export default async function globalTeardown() {
  stopLeftoverRedisServers(process.env.TEST_RUN_DIR);
  for (const stop of (globalThis.__testInfraStops ?? []).reverse()) await stop();
  if (process.env.TEST_RUN_DIR) await rm(process.env.TEST_RUN_DIR, { recursive: true, force: true });
}
