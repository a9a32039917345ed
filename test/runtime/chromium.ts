import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Headless Chromium for the browser tests: Debian's chromium, never a downloaded one. */

export const chromiumPath = '/usr/bin/chromium';
export const hasChromium = fs.existsSync(chromiumPath);

const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** Prints why the browser tests of a file do not run, when Chromium is absent. */
export function noteWhenChromiumAbsent(what: string): void {
  if (!hasChromium) console.log(`SKIP ${what}: ${chromiumPath} is absent (apt-get install -y chromium)`);
}

/** A fresh headless Chromium profile, removed by `close`. */
export async function launch(
  options: { javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idsvc-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a browser step; on failure saves a screenshot under test/artifacts/ and fails with the original error. */
export async function step<T>(page: Page, name: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    fs.mkdirSync(artifacts, { recursive: true });
    const file = path.join(artifacts, `${name.replace(/\W+/g, '-')}-${Date.now()}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    throw new Error(`${name} failed (screenshot: ${file}): ${(error as Error).message}`, { cause: error });
  }
}
