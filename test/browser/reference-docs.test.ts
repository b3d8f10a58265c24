// /docs/ of every listener in a real browser: the rendered reference passes axe-core (no serious or critical
// violation), names its language, and offers no control that reaches a service outside the deployment.
// Page functions run in the browser; the server's program has no DOM typings.
declare const document: any;
declare const location: any;
import type { Browser } from 'puppeteer-core';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { axeProblems, flow, launch } from './browser.js';

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'partner', 'workspace'] });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

/** Labels of the controls Scalar offers for its hosted services (its agent, deployment, SDK generation). */
const outsideControls = /ask ai|deploy|generate sdk|\bsdks?\b|agent|mcp|register|share|scalar (cloud|registry)/i;

// Functions run in the page (puppeteer sends their source): they read the DOM and use nothing from this file.

/** Whether the reference has rendered more than a stub of text. */
function referenceRendered(): boolean {
  return (document.querySelector('.references-rendered')?.innerText.length ?? 0) > 500;
}

/** The text, aria-label and title of each control, whitespace collapsed. */
function controlLabels(els: any[]): string[] {
  return els.map((e: any) =>
    `${e.textContent ?? ''} ${e.getAttribute('aria-label') ?? ''} ${e.getAttribute('title') ?? ''}`.replace(/\s+/g, ' ').trim(),
  );
}

/** The http(s) links that leave the page's origin. */
function offsiteLinks(els: any[]): string[] {
  return els.map((e: any) => e.href as string).filter((h) => /^https?:/.test(h) && new URL(h).origin !== location.origin);
}

describe.each([
  ['chat', () => platform.chatUrl],
  ['partner', () => platform.partnerUrl],
  ['workspace', () => platform.workspaceUrl],
])('/docs/ on the %s listener', (name, base) => {
  test('renders in English, passes axe at 1280 and 390 px, and offers nothing that leaves the deployment', async () => {
    for (const width of [1280, 390]) {
      const f = await flow(browser, `docs-${name}-${width}`, width);
      try {
        await f.step('the reference renders its operations', async () => {
          await f.page.goto(`${base()}/docs/`, { waitUntil: 'networkidle0' });
          await f.page.waitForSelector('.scalar-app');
          await f.page.waitForFunction(referenceRendered);
          expect(await f.page.$eval('html', (e) => e.getAttribute('lang'))).toBe('en');
          await f.shot('page');
        });
        await f.step('axe-core finds no serious or critical violation', async () => {
          expect(await axeProblems(f.page)).toEqual([]);
        });
        await f.step('no Ask AI, Deploy, Generate SDK or similar control; the only link off the page is the attribution', async () => {
          const controls: string[] = await f.page.$$eval('button, [role=button], a', controlLabels);
          expect(controls.length).toBeGreaterThan(0);
          expect(controls.filter((c) => outsideControls.test(c))).toEqual([]);
          const offsite: string[] = await f.page.$$eval('a[href]', offsiteLinks);
          expect(offsite.filter((h) => !/^https:\/\/scalar\.com\/\?utm_source=powered-by/.test(h))).toEqual([]);
        });
      } finally {
        await f.close();
      }
    }
  });
});
