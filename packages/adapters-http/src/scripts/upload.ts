import { Invalid } from '@plaza/domain';
import { MAX_UPLOAD_BYTES, UPLOAD_TYPE_NAMES, type UploadService } from '@plaza/domain/media';
import { z } from 'zod';
import { receivedFiles } from '../http/multipart.js';
import { op, type Script } from '../http/operation.js';

const Uploaded = z.object({
  message: z.string(),
  /** The relative path the main web application serves (`uploads/posts/media_….jpg`), which the clients read. */
  url: z.string().regex(/^uploads\/([a-z]+\/)?[a-z_]+[0-9a-f]{32}\.[a-z0-9]+$/),
  path: z.string(),
  /** The bare name, as posts, stories and messages reference it. */
  filename: z.string(),
  type: z.enum(UPLOAD_TYPE_NAMES),
  media_type: z.enum(['image', 'video', 'audio']),
  mime_type: z.string(),
  size: z.number().int().nonnegative(),
});

/**
 * upload.php (contract §12): multipart/form-data with the file in `media` and the upload type in
 * `type` (docs/decisions/0040). Images are stored re-encoded, videos and audio remuxed, without their
 * metadata (0110); the answer's `url` is served under `/uploads/` (0107).
 */
export function uploadScript(uploads: UploadService): Script {
  return {
    name: 'upload',
    operations: [
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'upload',
        multipart: { maxFileBytes: MAX_UPLOAD_BYTES },
        query: z.object({ type: z.enum(UPLOAD_TYPE_NAMES).optional() }),
        body: z.object({ type: z.enum(UPLOAD_TYPE_NAMES).optional() }),
        summary: `Upload a file (multipart/form-data: media = the file, type = ${UPLOAD_TYPE_NAMES.join('|')}); at most 100 MB; jpg, png, gif, webp, mp4, webm, mov, mp3, wav, m4a by name and by content; url is the stored relative path`,
        response: Uploaded,
        handle: async (ctx) => {
          const type = ctx.body.type ?? ctx.query.type;
          if (!type) throw Invalid.field('type', `required: one of ${UPLOAD_TYPE_NAMES.join(', ')}`);
          const files = receivedFiles(ctx.koa);
          const media = files.filter((f) => f.field === 'media');
          if (media.length === 0)
            throw Invalid.field('media', 'required: send the file as the multipart/form-data part media', 'missing_file');
          if (media.length > 1 || files.length > 1) throw Invalid.field('media', 'send one file per request');
          const stored = await uploads.upload(ctx.actor, type, {
            path: media[0].path,
            originalName: media[0].originalName,
            size: media[0].size,
          });
          return {
            message: 'File uploaded',
            url: stored.path,
            path: stored.path,
            filename: stored.name,
            type: stored.type,
            media_type: stored.kind,
            mime_type: stored.mime,
            size: stored.size,
          };
        },
      }),
    ],
  };
}
