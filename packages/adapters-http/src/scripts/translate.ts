import { TRANSLATION_MAX_CHARS, type TranslationService } from '@plaza/domain/media';
import { z } from 'zod';
import { op, type Script } from '../http/operation.js';

/**
 * translate.php (contract §11): form-urlencoded or JSON `text` and `target_lang`; the answer carries
 * the translation under both `translated` (the screens) and `translatedText` (the API layer).
 */
export function translateScript(translations: TranslationService): Script {
  return {
    name: 'translate',
    operations: [
      op({
        method: 'POST',
        auth: 'required',
        body: z.object({
          // Characters are counted by the service (code points): an emoji is one, though two UTF-16 units.
          text: z.string().max(2 * TRANSLATION_MAX_CHARS, `must be at most ${TRANSLATION_MAX_CHARS} characters`),
          target_lang: z.string().min(1).max(16),
        }),
        summary: `Translate text (at most ${TRANSLATION_MAX_CHARS} characters; longer is a 413) into target_lang through the configured LibreTranslate-compatible backend (503 when there is none or it fails); identical requests are answered from a cache`,
        response: z.object({
          translated: z.string(),
          translatedText: z.string(),
          target_lang: z.string(),
          source_lang: z.string().nullable(),
          cached: z.boolean(),
        }),
        handle: async (ctx) => {
          const t = await translations.translate(ctx.actor, ctx.body);
          return {
            translated: t.text,
            translatedText: t.text,
            target_lang: ctx.body.target_lang.trim(),
            source_lang: t.detectedLanguage,
            cached: t.cached,
          };
        },
      }),
    ],
  };
}
