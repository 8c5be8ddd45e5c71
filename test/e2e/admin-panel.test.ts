import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminBrowser,
  chromiumSkipped,
  DESKTOP,
  hasChromium,
  PHONE,
  type PageOptions,
  shot,
  signIn,
  warnIfNoChromium,
} from '../support/admin-browser.js';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The admin panel in headless Chromium (Debian's, driven by playwright-core): the scenarios,
 * with a screenshot of each page saved under test-artifacts/admin/ (gitignored) at phone and desktop
 * sizes. One browser for the whole file; each scenario gets a fresh context (its own cookies).
 */
warnIfNoChromium('admin-panel.test.ts');

let t: TestServer;
const browser = new AdminBrowser();
let configDir: string;

describe.skipIf(!hasChromium)(`admin panel in Chromium${chromiumSkipped}`, () => {
  beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'plaza-admin-panel-'));
    // No MEDIA_SERVER_* and no WEBRTC_TURN_*: the files the panel writes are what is in effect.
    [t] = await Promise.all([
      startTestServer({ env: { API_CONFIG_DIR: configDir, MEDIA_SERVER_URL: '', MEDIA_SERVER_API_KEY: '', MEDIA_SERVER_API_SECRET: '' } }),
      browser.launch(),
    ]);
  });
  afterAll(async () => {
    await browser.close();
    await t?.close();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  const openPage = (viewport = DESKTOP, options?: PageOptions) => browser.openPage(t.url, viewport, options);

  const technician = async () => {
    const u = await aUser(t.api);
    await t.database.db.updateTable('users').set({ is_technician: 1 }).where('id', '=', u.id).execute();
    return u;
  };

  it('signs in and lands on the tokens page, at phone and desktop sizes', async () => {
    const u = await aUser(t.api);
    const phone = await openPage(PHONE);
    await phone.goto('/admin/login.php');
    await shot(phone, 'login-phone');
    const desktop = await openPage();
    await desktop.goto('/admin/login.php');
    await shot(desktop, 'login-desktop');
    await desktop.fill('#login', u.username);
    await desktop.fill('#password', 'a wrong password');
    await desktop.click('button[type=submit]:has-text("Sign in")');
    await expect.poll(() => desktop.textContent('.alert.error')).toContain('Wrong username, e-mail or password');
    await shot(desktop, 'login-refused');

    await signIn(desktop, u);
    expect(new URL(desktop.url()).pathname).toBe('/admin/tokens.php');
    expect(await desktop.textContent('h1')).toBe('API tokens');
    expect(await desktop.textContent('table')).toContain('this browser');
    await desktop.click('button:has-text("Create a token")');
    const token = (await desktop.textContent('#new-token'))!.trim();
    expect((await t.api.get('users.php', { token })).status).toBe(200);
    await shot(desktop, 'tokens-desktop');
    await signIn(phone, u);
    await shot(phone, 'tokens-phone');
  });

  it('lets a technician save the media server with the password: the next live token is signed with the new key', async () => {
    const tech = await technician();
    const file = join(configDir, 'media_server.local.php');
    const before = await t.api.post(
      'lives.php?path=token',
      { roomName: 'test-lab', identity: `u${tech.id}-a`, name: 'Tech' },
      { token: tech.token },
    );
    expect(before.status).toBe(503);

    const page = await openPage();
    await signIn(page, tech, '/admin/media_server.php');
    expect(new URL(page.url()).pathname).toBe('/admin/media_server.php');
    expect(await page.textContent('main')).toContain('No media server is configured yet');
    await shot(page, 'media-server-empty');

    // A wrong password: refused, nothing written.
    await page.fill('#url', 'wss://media.example.org');
    await page.fill('#api_key', 'APIfirstkey');
    await page.fill('#api_secret', 'first-secret-of-some-length');
    await page.fill('#password', 'not my password');
    await page.click('button:has-text("Save")');
    expect(await page.textContent('.alert.error')).toContain('The password is wrong: nothing was saved');
    expect(existsSync(file)).toBe(false);
    await shot(page, 'media-server-wrong-password');

    await page.fill('#api_secret', 'first-secret-of-some-length');
    await page.fill('#password', tech.password);
    await page.click('button:has-text("Save")');
    expect(await page.textContent('.alert.success')).toContain('Saved');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain("'api_key' => 'APIfirstkey'");
    // The saved secret is never shown back in full.
    expect(await page.content()).not.toContain('first-secret-of-some-length');
    expect(await page.textContent('main')).toContain('••••••••ngth');
    await shot(page, 'media-server-saved');

    const first = await t.api.post(
      'lives.php?path=token',
      { roomName: 'test-lab', identity: `u${tech.id}-a`, name: 'Tech' },
      { token: tech.token },
    );
    expect(first.status).toBe(200);
    expect(first.body.url).toBe('wss://media.example.org');
    const { payload } = await jwtVerify(first.body.token, new TextEncoder().encode('first-secret-of-some-length'));
    expect(payload.iss).toBe('APIfirstkey');

    // A new key and secret apply to the next token, without a restart.
    await page.fill('#api_key', 'APIsecondkey');
    await page.fill('#api_secret', 'second-secret-of-some-length');
    await page.fill('#password', tech.password);
    await page.click('button:has-text("Save")');
    const second = await t.api.post(
      'lives.php?path=token',
      { roomName: 'test-lab', identity: `u${tech.id}-b`, name: 'Tech' },
      { token: tech.token },
    );
    const verified = await jwtVerify(second.body.token, new TextEncoder().encode('second-secret-of-some-length'));
    expect(verified.payload.iss).toBe('APIsecondkey');
  });

  it('gives a non-technician the 403 page', async () => {
    const u = await aUser(t.api);
    const page = await openPage(PHONE);
    await signIn(page, u);
    const res = await page.goto('/admin/media_server.php');
    expect(res?.status()).toBe(403);
    expect(await page.textContent('h1')).toBe('Not allowed');
    expect(await page.textContent('main')).toContain('This page is reserved to technicians');
    // No link to the technicians' pages in the menu either.
    expect(await page.locator('nav a[href="/admin/media_server.php"]').count()).toBe(0);
    await shot(page, 'forbidden-phone');
  });

  it('refuses a form posted without its CSRF token', async () => {
    const tech = await technician();
    const file = join(configDir, 'media_server.local.php');
    const written = existsSync(file) ? readFileSync(file, 'utf8') : null;
    // Scripts are off in the other contexts (the pages need none); this one tampers with the form.
    const page = await openPage(DESKTOP, { javaScriptEnabled: true });
    await signIn(page, tech, '/admin/media_server.php');
    await page.fill('#url', 'wss://evil.example.org');
    await page.fill('#api_key', 'APIevil');
    await page.fill('#api_secret', 'evil-secret-of-some-length');
    await page.fill('#password', tech.password);
    await page.locator('form[action="/admin/media_server.php"] input[name=_csrf]').evaluate((el) => el.remove());
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('button:has-text("Save")'),
    ]);
    expect(response.status()).toBe(403);
    expect(await page.textContent('main')).toContain('This form has expired or did not come from this site');
    expect(existsSync(file) ? readFileSync(file, 'utf8') : null).toBe(written);
    await shot(page, 'csrf-refused');
  });

  it('shows the coturn block on the TURN page, and settings.php hands out credentials for the saved relay', async () => {
    const tech = await technician();
    const page = await openPage();
    await signIn(page, tech, '/admin/turn.php');
    await shot(page, 'turn-empty');
    await page.fill('#urls', 'turn:turn.example.org:3478\nturns:turn.example.org:5349');
    await page.fill('#secret', 'a-long-turn-shared-secret-0123456789');
    await page.fill('#ttl', '3600');
    await page.fill('#realm', 'turn.example.org');
    await page.fill('#password', tech.password);
    await page.click('button:has-text("Save")');
    const block = await page.textContent('#coturn-block');
    expect(block).toBe('use-auth-secret\nstatic-auth-secret=a-long-turn-shared-secret-0123456789\nrealm=turn.example.org');
    await shot(page, 'turn-saved');
    // Later visits show the block with the secret masked.
    await page.goto('/admin/turn.php');
    expect(await page.textContent('#coturn-block')).toBe('use-auth-secret\nstatic-auth-secret=••••••••6789\nrealm=turn.example.org');
    expect(await page.content()).not.toContain('a-long-turn-shared-secret-0123456789');
    expect(readFileSync(join(configDir, 'turn.local.php'), 'utf8')).toContain(
      "'urls' => 'turn:turn.example.org:3478,turns:turn.example.org:5349'",
    );

    const u = await aUser(t.api);
    const settings = await t.api.get('settings.php', { token: u.token });
    expect(settings.status).toBe(200);
    expect(settings.body.turn_credentials_mode).toBe('hmac');
    expect(settings.body.turn_realm).toBe('turn.example.org');
    const [turn] = settings.body.turn_servers;
    expect(turn.urls).toEqual(['turn:turn.example.org:3478', 'turns:turn.example.org:5349']);
    const [expiry, who] = turn.username.split(':');
    expect(who).toBe(String(u.id));
    expect(Number(expiry) - Math.floor(Date.now() / 1000)).toBeGreaterThan(3500);
    expect(Number(expiry) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(3601);
    expect(turn.credential).toBe(createHmac('sha1', 'a-long-turn-shared-secret-0123456789').update(turn.username).digest('base64'));
  });

  it('lists and searches accounts for an administrator, who promotes one', async () => {
    const admin = await aUser(t.api);
    await t.database.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.id).execute();
    const other = await aUser(t.api);
    const page = await openPage();
    await signIn(page, admin, '/admin.php?tab=technicians');
    await page.fill('#q', other.username);
    await page.click('button:has-text("Search")');
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.click('button:has-text("Make admin")');
    expect(await page.textContent('.alert.success')).toContain('Promoted to administrator');
    expect((await t.database.db.selectFrom('users').select('is_admin').where('id', '=', other.id).executeTakeFirstOrThrow()).is_admin).toBe(
      1,
    );
    await page.goto('/admin.php?tab=technicians');
    await shot(page, 'technicians-desktop');
    const phone = await openPage(PHONE);
    await signIn(phone, admin, '/admin.php?tab=technicians');
    await shot(phone, 'technicians-phone');
  });
});
