import { Clock, token } from '@plaza/domain';
import {
  MediaInspector,
  MediaReferences,
  MediaStore,
  TranslationCache,
  TranslationService,
  UploadCollector,
  UploadedMedia,
  UploadFiles,
  UploadRegistry,
  UploadsAccountData,
  UploadService,
} from '@plaza/domain/media';
import { FfmpegRemuxer, FileTypeMediaInspector, FsMediaStore, FsUploadedMedia, packagedFfmpeg } from '@plaza/adapters-integrations/media';
import { LibreTranslateTranslator, LruTranslationCache } from '@plaza/adapters-integrations/translate';
import { FsUploadFiles } from '@plaza/adapters-integrations/upload-files';
import { MEDIA_MIGRATIONS, SqlUploadRegistry } from '@plaza/adapters-mysql/media';
import { translateScript } from '@plaza/adapters-http/scripts/translate';
import { uploadScript } from '@plaza/adapters-http/scripts/upload';
import { uploadsMount } from '@plaza/adapters-http';
import { featureModule } from '../wiring/feature-module.js';
import { ConfigToken, DatabaseToken, LoggerToken, Mounts } from '../wiring/tokens.js';

export const Media = {
  /** The check every service that accepts a media reference makes (form, owner, type, existence). */
  References: token<MediaReferences>('media.References'),
  UploadService: token<UploadService>('media.UploadService'),
  TranslationService: token<TranslationService>('media.TranslationService'),
  Remuxer: token<FfmpegRemuxer>('media.Remuxer'),
};

/**
 * What media declares outside the container (docs/decisions/0130): the contract suites of its ports.
 * No use cases: `UploadService.upload` takes an `IncomingFile` the HTTP multipart parser spooled to a
 * temporary file (its path, the client's name, its size), not a buffer or a stream, so a library user has
 * no file to hand it; `TranslationService` is the server's call to LibreTranslate.
 */
const face = {
  name: 'media',
  ports: {
    // media (UploadedMedia's adapter is the file system; its suite runs on it and the fake, test/contracts/media.test.ts)
    UploadedMedia: { suites: ['media/testing/media.contract.ts'], via: 'uploaded' },
    UploadRegistry: { suites: ['media/testing/uploads.contract.ts'], via: 'registry' },
    // the file system's digests and removals (adapters-integrations/upload-files), exercised by the e2e collection tests
    UploadFiles: 'no SQL adapter',
    MediaInspector: 'no SQL adapter',
    MediaStore: 'no SQL adapter',
    Translator: 'no SQL adapter',
    TranslationCache: { suites: ['media/testing/media.contract.ts'], via: 'cache' },
  },
} as const;

/** Uploads under API_UPLOADS_PATH (docs/decisions/0040), media references (0043) and translation (0041). */
export const mediaModule = featureModule(face, (w) => {
  w.bind(UploadedMedia, [ConfigToken], (config) => new FsUploadedMedia(config.uploadsPath));
  w.construct(MediaInspector, FileTypeMediaInspector, []);
  // Videos and audio remuxed without metadata (docs/decisions/0110); without a usable ffmpeg they answer 503.
  w.bind(Media.Remuxer, { config: ConfigToken, logger: LoggerToken }, ({ config, logger }) => {
    const binary = config.remux.ffmpegPath ?? packagedFfmpeg();
    const usable = binary !== null && FfmpegRemuxer.usable(binary);
    if (!usable) logger.warn({ ffmpeg: binary }, 'no usable ffmpeg binary: video and audio uploads answer 503 (see API_FFMPEG_PATH)');
    const log = (details: Record<string, unknown>, message: string) => logger.warn(details, message);
    return new FfmpegRemuxer({
      binary: usable ? binary : null,
      timeoutMs: config.remux.timeoutMs,
      concurrency: config.remux.concurrency,
      log,
    });
  });
  w.bind(
    MediaStore,
    { config: ConfigToken, remuxer: Media.Remuxer },
    ({ config, remuxer }) => new FsMediaStore(config.uploadsPath, remuxer),
  );
  // GET /uploads/... when no main application serves them (docs/decisions/0107).
  w.bind(Mounts, [ConfigToken], (config) => uploadsMount(config.uploadsPath, config.serveUploads));
  w.construct(TranslationCache, LruTranslationCache, []);
  // Owned uploads (docs/decisions/0114): the uploads table, the files, the references' owner check, the collection.
  w.migrations(MEDIA_MIGRATIONS);
  w.bind(UploadRegistry, [DatabaseToken], ({ db }) => new SqlUploadRegistry(db));
  w.bind(UploadFiles, [ConfigToken], (config) => new FsUploadFiles(config.uploadsPath));
  w.accountData([UploadRegistry], (registry) => new UploadsAccountData(registry));
  w.job(
    { name: 'collect-uploads', everyMs: 10 * 60_000 },
    { registry: UploadRegistry, files: UploadFiles, clock: Clock, config: ConfigToken, logger: LoggerToken },
    ({ registry, files, clock, config, logger }) => {
      const collector = new UploadCollector(registry, files, clock, { orphanHours: config.uploadOrphanHours });
      return async () => {
        const report = await collector.collect();
        // One JSON line per run that removed anything: what went, and the files that could not be deleted.
        if (report.failures.length > 0) logger.warn({ job: 'collect-uploads', ...report }, 'uploads collected, some files not deleted');
        else if (report.orphans + report.erased + report.missing > 0)
          logger.info({ job: 'collect-uploads', ...report }, 'uploads collected');
        return report;
      };
    },
  );
  w.construct(Media.References, MediaReferences, [UploadedMedia, UploadRegistry, Clock]);
  w.construct(Media.UploadService, UploadService, [MediaInspector, MediaStore, UploadRegistry, UploadFiles, Clock]);
  w.bind(Media.TranslationService, { config: ConfigToken, cache: TranslationCache, logger: LoggerToken }, ({ config, cache, logger }) => {
    const translator = config.translate
      ? new LibreTranslateTranslator(config.translate.url, config.translate.apiKey, {
          log: (message, detail) => logger.warn(detail, message),
        })
      : null;
    return new TranslationService(translator, cache);
  });
  w.script([Media.UploadService], uploadScript);
  w.script([Media.TranslationService], translateScript);
});
