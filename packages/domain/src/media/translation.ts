import type { Actor } from '../shared/actor.js';
import { Invalid, PayloadTooLarge, Unavailable } from '../shared/errors.js';
import type { Translation, TranslationCache, Translator } from './ports.js';

/** Longest text translate.php takes, in characters (spec, Limits). */
export const TRANSLATION_MAX_CHARS = 5000;

/** A language code as LibreTranslate names them: `fr`, `en`, `pt-BR`, `zh-Hans`. */
export const LANGUAGE_CODE = /^[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?$/;

/**
 * translate.php: a text into a target language through the configured backend. Identical requests
 * (same target, same text) are answered from the cache, and identical requests in flight share one
 * backend call. Without a backend (`translator` null), every request is a 503.
 */
export class TranslationService {
  private readonly inFlight = new Map<string, Promise<Translation>>();

  constructor(
    private readonly translator: Translator | null,
    private readonly cache: TranslationCache,
  ) {}

  get configured(): boolean {
    return this.translator !== null;
  }

  async translate(_actor: Actor, input: { text: string; target_lang: string }): Promise<Translation & { cached: boolean }> {
    const text = input.text;
    const target = input.target_lang.trim();
    if (text.trim() === '') throw Invalid.field('text', 'must not be empty');
    // Characters as people count them (code points), not UTF-16 units.
    const length = [...text].length;
    if (length > TRANSLATION_MAX_CHARS) {
      throw new PayloadTooLarge(
        `The text has ${length} characters; at most ${TRANSLATION_MAX_CHARS} characters can be translated at once`,
        'text_too_long',
      );
    }
    if (!LANGUAGE_CODE.test(target)) throw Invalid.field('target_lang', 'must be a language code such as fr, en or pt-BR');
    if (!this.translator) throw new Unavailable('Translation is not configured on this server', 'translation_unavailable');
    const translator = this.translator;

    const cached = await this.cache.get(target, text);
    if (cached) return { ...cached, cached: true };
    const key = `${target}\u0000${text}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = (async () => {
        const translation = await translator.translate({ text, target });
        await this.cache.set(target, text, translation);
        return translation;
      })().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return { ...(await pending), cached: false };
  }
}
