// Drives Debian's chromium with puppeteer-core for the console's browser tests: one incognito context per flow,
// named steps that keep a screenshot when they fail, and an axe-core check of the page as it stands.
// Page functions run in the browser; the server's program has no DOM typings.
declare const document: any;
declare const window: any;
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const outputDir = `${root}.data/test-output/console/`;

export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (existsSync(candidate)) return candidate;
  throw new Error('chromium is not installed: `make test` installs it (apt-get install chromium), or set CHROMIUM_PATH');
}

/** dist/console from the current sources when it is missing (`make build` normally made it). */
export function ensureConsoleBuilt(): void {
  if (existsSync(`${root}dist/console/index.html`)) return;
  execFileSync(
    process.execPath,
    [`${root}node_modules/vite/bin/vite.js`, 'build', '--config', `${root}console/vite.config.ts`, '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
}

export async function launch(): Promise<Browser> {
  mkdirSync(outputDir, { recursive: true });
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
  });
}

export interface Flow {
  page: Page;
  /** Runs one named step; a failure names the flow and the step, and leaves <flow>-failed.png behind. */
  step<T>(name: string, body: () => Promise<T>): Promise<T>;
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function flow(browser: Browser, name: string, width = 1280): Promise<Flow> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width, height: 900 });
  page.setDefaultTimeout(15_000);
  const shot = async (label: string) => {
    await page.screenshot({ path: `${outputDir}${name}-${label}.png` as `${string}.png`, fullPage: true });
  };
  return {
    page,
    shot,
    async step(stepName, body) {
      try {
        return await body();
      } catch (error) {
        await page.screenshot({ path: `${outputDir}${name}-failed.png` as `${string}.png`, fullPage: true }).catch(() => undefined);
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`flow "${name}", step "${stepName}" failed (screenshot ${outputDir}${name}-failed.png): ${message}`, {
          cause: error,
        });
      }
    },
    close: () => context.close(),
  };
}

const axeSource = readFileSync(`${root}node_modules/axe-core/axe.min.js`, 'utf8');

/** Serious and critical axe-core violations of the page as it is now, as readable lines. */
export async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            o: object,
          ): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.targets.join(', ')}`);
}

/** Clicks the first visible button whose text is exactly `text` (inside `scope` when given). */
export async function clickButton(page: Page, text: string, scope = 'body'): Promise<void> {
  await page.waitForFunction(
    (s, t) => [...document.querySelectorAll(`${s} button`)].some((b) => b.textContent?.trim() === t && !(b as any).disabled),
    {},
    scope,
    text,
  );
  await page.evaluate(
    (s, t) =>
      ([...document.querySelectorAll(`${s} button`)].find((b) => b.textContent?.trim() === t && !(b as any).disabled) as any).click(),
    scope,
    text,
  );
}

/** Waits until the page shows `text` somewhere. */
export async function waitForText(page: Page, text: string): Promise<void> {
  await page.waitForFunction((t) => document.body.innerText.includes(t), {}, text);
}

/** Whether the page is wider than the viewport (content cut off at 390 px). */
export async function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}
