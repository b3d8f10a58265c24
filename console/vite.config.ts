// Builds the settings console into dist/console, served by the chat listener at /console/. The SDK packages are
// taken from their sources in this repository, so the console always matches the generated clients.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/console/',
  publicDir: false,
  resolve: {
    alias: {
      '@chat-platform/partner-sdk': here('../sdk/partner/src/index.ts'),
      '@chat-platform/workspace-sdk': here('../sdk/workspace/src/index.ts'),
      '@chat-platform/sdk-core': here('../sdk/core/src/index.ts'),
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: here('../dist/console'), emptyOutDir: true, sourcemap: true, target: 'es2022' },
});
