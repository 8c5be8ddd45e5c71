import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type LaunchOptions, type Page } from 'playwright-core';
import type { TestUser } from './mothers.js';

/**
 * What the admin panel's browser tests share (admin-*.test.ts): Debian's Chromium driven by
 * playwright-core, one browser per test file, a fresh context (its own cookies) per page, screenshots
 * under test-artifacts/admin/ (gitignored), and the panel's sign-in form.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/** Appended to a suite's name, so a skipped run says why. */
export const chromiumSkipped = hasChromium ? '' : ` (skipped: ${CHROMIUM} is absent)`;

/** One line on the console per skipped file, with how to install what is missing. */
export function warnIfNoChromium(testFile: string): void {
  if (!hasChromium) console.warn(`${testFile} skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);
}

export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'admin');

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Headless, no sandbox (tests may run as root) and nothing in the background that reaches the network. */
export const LAUNCH_OPTIONS: LaunchOptions = {
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--headless',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

export interface PageOptions {
  /** Off unless a test asks: the panel's pages need no script. */
  javaScriptEnabled?: boolean;
}

/** One Chromium for a test file: launch() in beforeAll, openPage() in the tests, close() in afterAll. */
export class AdminBrowser {
  #browser: Browser | undefined;
  readonly #contexts: BrowserContext[] = [];

  /** Starts Chromium; makes the screenshot folder too. */
  async launch(): Promise<void> {
    mkdirSync(ARTIFACTS, { recursive: true });
    this.#browser = await chromium.launch(LAUNCH_OPTIONS);
  }

  /** A page in a fresh context on `baseURL` (a test server's url) at `viewport`. */
  async openPage(baseURL: string, viewport = DESKTOP, { javaScriptEnabled = false }: PageOptions = {}): Promise<Page> {
    if (!this.#browser) throw new Error('AdminBrowser.openPage() before launch()');
    const context = await this.#browser.newContext({ viewport, baseURL, javaScriptEnabled });
    this.#contexts.push(context);
    return context.newPage();
  }

  /** Closes the contexts it opened, then the browser; safe when launch() never finished. */
  async close(): Promise<void> {
    for (const c of this.#contexts.splice(0)) await c.close().catch(() => {});
    await this.#browser?.close();
  }
}

/** A full-page screenshot, test-artifacts/admin/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Signs in through the panel's form and waits until it has left the login page (for `next`). */
export async function signIn(page: Page, user: Pick<TestUser, 'username' | 'password'>, next = '/admin/tokens.php'): Promise<void> {
  await page.goto(`/admin/login.php?next=${encodeURIComponent(next)}`);
  await page.fill('#login', user.username);
  await page.fill('#password', user.password);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.endsWith('/login.php')),
    page.click('button[type=submit]:has-text("Sign in")'),
  ]);
}
