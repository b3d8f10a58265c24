// An OCI image archive (`make image`) unpacked as a container runtime does it, and its entrypoint run from the
// unpacked root file system by scripts/image/run-unpacked.sh (namespaces, read-only root, the image's user), for the
// tests of a machine without a container runtime.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The parts of an OCI image configuration that say how to run it. */
export interface ImageConfig {
  User: string;
  WorkingDir: string;
  Entrypoint: string[];
  Cmd?: string[] | null;
  Env: string[];
  StopSignal?: string;
}

export interface UnpackedImage {
  rootfs: string;
  config: ImageConfig;
  layers: number;
}

export interface RunningImage {
  proc: ChildProcess;
  /** Everything the container wrote to stdout and stderr so far. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** index.json names the manifest, the manifest the configuration and the layers, in order; each is a blob by digest. */
export async function unpackImage(archive: string, dir: string): Promise<UnpackedImage> {
  const blobs = join(dir, 'archive');
  const rootfs = join(dir, 'rootfs');
  await mkdir(blobs, { recursive: true });
  await mkdir(rootfs, { recursive: true });
  await run('tar', ['-xf', archive, '-C', blobs]);
  const blobPath = (digest: string) => join(blobs, 'blobs', ...digest.split(':'));
  const json = async (path: string) => JSON.parse(await readFile(path, 'utf8'));
  const index = await json(join(blobs, 'index.json'));
  const manifest = await json(blobPath(index.manifests[0].digest));
  const image = await json(blobPath(manifest.config.digest));
  for (const layer of manifest.layers as Array<{ digest: string }>) {
    await run('tar', ['-xzf', blobPath(layer.digest), '-C', rootfs, '--numeric-owner', '--same-permissions']);
  }
  return { rootfs, config: image.config as ImageConfig, layers: manifest.layers.length };
}

/** Runs the image's entrypoint with its environment plus `env`, and nothing of this process's environment. */
export function runImage(image: UnpackedImage, env: Record<string, string>): RunningImage {
  const environment: Record<string, string> = {};
  for (const entry of image.config.Env) {
    const at = entry.indexOf('=');
    environment[entry.slice(0, at)] = entry.slice(at + 1);
  }
  Object.assign(environment, env);
  const command = [...image.config.Entrypoint, ...(image.config.Cmd ?? [])];
  const proc = spawn('scripts/image/run-unpacked.sh', [image.rootfs, image.config.User, image.config.WorkingDir, ...command], {
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { proc, output: () => out, exited };
}
