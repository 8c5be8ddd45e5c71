import { token } from '@plaza/domain';
import { MediaInspector, MediaReferences, MediaStore, TranslationCache, TranslationService, UploadedMedia, UploadService } from '@plaza/domain/media';
import { FileTypeMediaInspector, FsMediaStore, FsUploadedMedia } from '@plaza/adapters-integrations/media';
import { LibreTranslateTranslator, LruTranslationCache } from '@plaza/adapters-integrations/translate';
import { translateScript } from '@plaza/adapters-http/scripts/translate';
import { uploadScript } from '@plaza/adapters-http/scripts/upload';
import { featureModule } from '../wiring/feature-module.js';
import { ConfigToken, LoggerToken } from '../wiring/tokens.js';

export const Media = {
  /** The check every service that accepts a media reference makes (form, then existence). */
  References: token<MediaReferences>('media.References'),
  UploadService: token<UploadService>('media.UploadService'),
  TranslationService: token<TranslationService>('media.TranslationService'),
};

/** Uploads under API_UPLOADS_PATH (docs/decisions/0040), media references (0043) and translation (0041). */
export const mediaModule = featureModule((w) => {
  w.bind(UploadedMedia, [ConfigToken], (config) => new FsUploadedMedia(config.uploadsPath));
  w.bind(MediaInspector, [], () => new FileTypeMediaInspector());
  w.bind(MediaStore, [ConfigToken], (config) => new FsMediaStore(config.uploadsPath));
  w.bind(TranslationCache, [], () => new LruTranslationCache());
  w.bind(Media.References, [UploadedMedia], (uploaded) => new MediaReferences(uploaded));
  w.bind(Media.UploadService, [MediaInspector, MediaStore], (inspector, store) => new UploadService(inspector, store));
  w.bind(Media.TranslationService, [ConfigToken, TranslationCache, LoggerToken], (config, cache, logger) => {
    const translator = config.translate
      ? new LibreTranslateTranslator(config.translate.url, config.translate.apiKey, { log: (message, detail) => logger.warn(detail, message) })
      : null;
    return new TranslationService(translator, cache);
  });
  w.script([Media.UploadService], uploadScript);
  w.script([Media.TranslationService], translateScript);
});
