import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { Actor } from '@plaza/domain';
import { exportedMedia, type ExportService } from '@plaza/domain/accounts';
import { ZipFile } from 'yazl';
import { z } from 'zod';
import { Download, op, type Script } from '../http/operation.js';
import { actorJson, archivedMediaPath, outboxJson, type ArchiveIdentity } from '../presenters/activity-archive.js';

export interface ExportSettings extends ArchiveIdentity {
  /** API_UPLOADS_PATH: where `uploads/...` media values live on disk. */
  uploadsPath: string;
}

/** The file under the uploads directory a stored `uploads/...` value names; null if it would leave it. */
function mediaFile(uploadsPath: string, value: string): string | null {
  const inside = value.replace(/^uploads\//, '');
  const file = resolve(uploadsPath, inside);
  const rel = relative(uploadsPath, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? file : null;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * The ZIP archive, streamed: yazl writes one entry after the other, pulling each stream only when its
 * turn comes, so neither the JSON nor the media are ever whole in memory. Layout of Mastodon's archive
 * (actor.json, outbox.json, media_attachments/files/…) plus Plaza's own plaza-export.json.
 */
async function archive(exports: ExportService, actor: Actor, settings: ExportSettings): Promise<NodeJS.ReadableStream> {
  const user = await exports.account(actor);
  const zip = new ZipFile();
  zip.addReadStream(Readable.from(await exports.json(actor)), 'plaza-export.json');
  zip.addReadStream(Readable.from(outboxJson(settings, user, exports.posts(actor))), 'outbox.json');
  const own = (value: string | null, source: string) => (value ? (exportedMedia({ value, kind: 'avatar', source })?.path ?? null) : null);
  zip.addBuffer(
    Buffer.from(JSON.stringify(actorJson(settings, user, own(user.avatar, 'avatar'), own(user.banner, 'banner')), null, 2)),
    'actor.json',
  );
  // The media entries are added while the first entries stream; yazl keeps their order.
  void (async () => {
    const seen = new Set<string>();
    const missing: string[] = [];
    try {
      for await (const media of exports.media(actor)) {
        if (seen.has(media.path)) continue;
        seen.add(media.path);
        const file = mediaFile(settings.uploadsPath, media.path);
        if (file && (await isFile(file))) zip.addFile(file, archivedMediaPath(media.path));
        else missing.push(media.path);
      }
      zip.addBuffer(
        Buffer.from(JSON.stringify({ media_files: seen.size - missing.length, missing_media: missing }, null, 2)),
        'plaza-manifest.json',
      );
      zip.end();
    } catch (error) {
      // The response has started: the only way to say it failed is to cut the archive short.
      zip.outputStream.emit('error', error);
    }
  })();
  return zip.outputStream;
}

export function exportScript(exports: ExportService, settings: ExportSettings): Script {
  return {
    name: 'export',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        acceptsQueryToken: true,
        rateLimit: 'export',
        download: { contentTypes: ['application/json', 'application/zip'] },
        query: z.object({ format: z.enum(['json', 'zip']).optional(), token: z.string().max(512).optional() }),
        summary:
          'Download all own data as JSON (or format=zip: the JSON, own media files, and an ActivityStreams actor.json and outbox.json as in a Mastodon archive); the token may be sent as ?token=',
        response: z.object({}),
        handle: async (ctx) => {
          const date = new Date().toISOString().slice(0, 10);
          const name = `plaza-export-${ctx.actor.username}-${date}`;
          if (ctx.query.format === 'zip')
            return new Download(await archive(exports, ctx.actor, settings), 'application/zip', `${name}.zip`);
          return new Download(await exports.json(ctx.actor), 'application/json; charset=utf-8', `${name}.json`);
        },
      }),
    ],
  };
}
