import { Invalid, Unavailable } from '@plaza/domain';
import type { Translation, TranslationCache, Translator } from '@plaza/domain/media';
import { postJson, snippet } from '../push/http-json.js';

/**
 * A LibreTranslate-compatible backend: `POST <TRANSLATE_URL>/translate` with `{q, source: "auto",
 * target, format: "text", api_key?}`, answering `{translatedText, detectedLanguage?: {language}}`.
 * TRANSLATE_URL may be the server's base URL or its `/translate` endpoint.
 */
export class LibreTranslateTranslator implements Translator {
  private readonly endpoint: string;

  constructor(
    url: string,
    private readonly apiKey: string | null,
    private readonly options: { timeoutMs?: number; log?: (message: string, detail: Record<string, unknown>) => void } = {},
  ) {
    const base = url.replace(/\/+$/, '');
    this.endpoint = /\/translate$/.test(base) ? base : `${base}/translate`;
  }

  async translate(request: { text: string; target: string }): Promise<Translation> {
    const body = {
      q: request.text,
      source: 'auto',
      target: request.target,
      format: 'text',
      ...(this.apiKey ? { api_key: this.apiKey } : {}),
    };
    let res;
    try {
      // The client gives up after 15 s: answer before it does.
      res = await postJson(this.endpoint, body, {}, this.options.timeoutMs ?? 10_000);
    } catch (error) {
      this.options.log?.('translation backend unreachable', { error: (error as Error).message });
      throw new Unavailable('The translation service is unreachable, try again later', 'translation_unavailable');
    }
    const json = (res.json ?? {}) as { translatedText?: unknown; detectedLanguage?: { language?: unknown }; error?: unknown };
    if (res.status === 400) {
      // The backend refuses the request itself: an unsupported language, typically.
      const why = typeof json.error === 'string' ? json.error.slice(0, 200) : 'the request was refused';
      throw new Invalid(`The translation service refused this translation: ${why}`, 'translation_refused', [
        { field: 'target_lang', problem: why },
      ]);
    }
    if (!res.ok || typeof json.translatedText !== 'string') {
      this.options.log?.('translation backend failed', { status: res.status, body: snippet(res.text) });
      throw new Unavailable('The translation service failed, try again later', 'translation_unavailable');
    }
    const detected = json.detectedLanguage?.language;
    return { text: json.translatedText, detectedLanguage: typeof detected === 'string' ? detected : null };
  }
}

/**
 * The translations of this process, least recently used first out, each kept a day at most; bounded
 * by entries and by characters (texts and translations together) so that it cannot grow without end.
 * In memory on purpose (docs/decisions/0041): the texts are users' posts and private messages, which
 * must not outlive their deletion in a table.
 */
export class LruTranslationCache implements TranslationCache {
  private readonly entries = new Map<string, { translation: Translation; size: number; expires: number }>();
  private chars = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxChars: number; ttlMs: number } = {
      maxEntries: 10_000,
      maxChars: 20_000_000,
      ttlMs: 24 * 3600_000,
    },
    private readonly now: () => number = Date.now,
  ) {}

  async get(target: string, text: string): Promise<Translation | null> {
    const key = `${target}\u0000${text}`;
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.expires <= this.now()) {
      this.chars -= entry.size;
      return null;
    }
    this.entries.set(key, entry); // most recently used: last
    return entry.translation;
  }

  async set(target: string, text: string, translation: Translation): Promise<void> {
    const key = `${target}\u0000${text}`;
    const size = key.length + translation.text.length;
    if (size > this.limits.maxChars) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.chars -= old.size;
    }
    this.entries.set(key, { translation, size, expires: this.now() + this.limits.ttlMs });
    this.chars += size;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.chars <= this.limits.maxChars) break;
      this.entries.delete(k);
      this.chars -= e.size;
    }
  }

  /** Entries held (expired ones included until they are read or pushed out). */
  get size(): number {
    return this.entries.size;
  }
}
