import { afterAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer } from '../support/server.js';

const t = await startTestServer();
afterAll(() => t.close());

/** POSTs translate.php form-urlencoded, as the mobile app does (contract §11). */
function translateForm(token: string, fields: Record<string, string>) {
  return t.api.request('POST', 'translate.php', undefined, {
    token,
    raw: new URLSearchParams(fields).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

describe('translate.php', () => {
  it('translates form-urlencoded and JSON requests through the backend, under translated and translatedText', async () => {
    const u = await aUser(t.api);
    const form = await translateForm(u.token, { text: 'Solidarity forever', target_lang: 'fr' });
    expect(form.status).toBe(200);
    expect(form.body).toEqual({
      success: true,
      translated: '[fr] Solidarity forever',
      translatedText: '[fr] Solidarity forever',
      target_lang: 'fr',
      source_lang: 'en',
      cached: false,
    });
    const sent = t.translate.requests.at(-1)!;
    expect(sent.url).toBe('/translate');
    expect(sent.body).toEqual({ q: 'Solidarity forever', source: 'auto', target: 'fr', format: 'text' });

    const json = await t.api.post('translate.php', { text: 'Hello', target_lang: 'es' }, { token: u.token });
    expect(json.body).toMatchObject({ success: true, translated: '[es] Hello', translatedText: '[es] Hello' });
  });

  it('answers identical requests from the cache, and only identical ones', async () => {
    const u = await aUser(t.api);
    const text = `Cached ${Math.random()}`;
    const calls = () => t.translate.requests.filter((r) => (r.body as { q?: string }).q === text).length;
    const first = await translateForm(u.token, { text, target_lang: 'de' });
    expect(first.body.cached).toBe(false);
    const again = await translateForm(u.token, { text, target_lang: 'de' });
    expect(again.body).toMatchObject({ translated: `[de] ${text}`, cached: true });
    expect(calls()).toBe(1);
    expect((await translateForm(u.token, { text, target_lang: 'it' })).body.cached).toBe(false);
    expect(calls()).toBe(2);
    // Identical requests at once share one backend call.
    const burst = `Burst ${Math.random()}`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => translateForm(u.token, { text: burst, target_lang: 'pt' })));
    expect(answers.every((a) => a.status === 200 && a.body.translated === `[pt] ${burst}`)).toBe(true);
    expect(t.translate.requests.filter((r) => (r.body as { q?: string }).q === burst).length).toBe(1);
  });

  it('refuses text over 5000 characters with a clear message, counting characters rather than UTF-16 units', async () => {
    const u = await aUser(t.api);
    const before = t.translate.requests.length;
    const long = await translateForm(u.token, { text: 'a'.repeat(5001), target_lang: 'fr' });
    expect(long.status).toBe(413);
    expect(long.body).toMatchObject({ success: false, code: 'text_too_long' });
    expect(long.body.error).toMatch(/5000 characters/);
    const veryLong = await translateForm(u.token, { text: 'a'.repeat(20_000), target_lang: 'fr' });
    expect([400, 413]).toContain(veryLong.status);
    expect(veryLong.body.error).toMatch(/5000 characters/);
    // 5000 emoji are 10,000 UTF-16 units but 5000 characters.
    expect((await translateForm(u.token, { text: '✊'.repeat(4999) + '🌹', target_lang: 'fr' })).status).toBe(200);
    expect(t.translate.requests.length).toBe(before + 1);
  });

  it('refuses bad input with 400 and anonymous requests with 401', async () => {
    const u = await aUser(t.api);
    expect((await translateForm(u.token, { text: '', target_lang: 'fr' })).status).toBe(400);
    expect((await translateForm(u.token, { text: 'hi' })).status).toBe(400);
    expect((await translateForm(u.token, { text: 'hi', target_lang: 'not a language' })).status).toBe(400);
    const unsupported = await translateForm(u.token, { text: 'hi', target_lang: 'xx' });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.code).toBe('translation_refused');
    expect((await translateForm('nope', { text: 'hi', target_lang: 'fr' })).status).toBe(401);
  });

  it('answers 503 JSON when the backend fails or is down, and recovers', async () => {
    const u = await aUser(t.api);
    t.translate.mode = 'error';
    try {
      const failing = await translateForm(u.token, { text: `fails ${Math.random()}`, target_lang: 'fr' });
      expect(failing.status).toBe(503);
      expect(failing.body).toMatchObject({ success: false, code: 'translation_unavailable' });
    } finally {
      t.translate.mode = 'ok';
    }
    expect((await translateForm(u.token, { text: 'works again', target_lang: 'fr' })).status).toBe(200);
  });
});

describe('translate.php without a reachable or configured backend', () => {
  it('is 503 when the backend is down, and when none is configured', async () => {
    const down = await startTestServer({ env: { TRANSLATE_URL: 'http://127.0.0.1:9/' } });
    const none = await startTestServer({ env: { TRANSLATE_URL: '' } });
    try {
      const a = await aUser(down.api);
      const res = await down.api.post('translate.php', { text: 'hello', target_lang: 'fr' }, { token: a.token });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: 'translation_unavailable' });
      const b = await aUser(none.api);
      const unconfigured = await none.api.post('translate.php', { text: 'hello', target_lang: 'fr' }, { token: b.token });
      expect(unconfigured.status).toBe(503);
      expect(unconfigured.body.error).toMatch(/not configured/);
    } finally {
      await down.close();
      await none.close();
    }
  });
});
