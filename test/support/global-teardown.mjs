export default async function globalTeardown() {
  for (const stop of (globalThis.__testInfraStops ?? []).reverse()) await stop();
}
