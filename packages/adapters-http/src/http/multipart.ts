import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { Invalid, PayloadTooLarge } from '@plaza/domain';
import type { Context } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';

/** A file part of a multipart request, waiting in the request's temporary directory. */
export interface ReceivedFile {
  /** The form field it came in (`media`). */
  field: string;
  path: string;
  /** The client's name for it. */
  originalName: string;
  size: number;
}

export interface MultipartOptions {
  /** Where each request gets its own temporary directory, removed when the request ends. */
  tmpDir: string;
  /** Largest file, and largest sum of files, of one request (bytes). */
  maxFileBytes: number;
}

/** Room for the other parts and the boundaries beyond the file, when judging a declared Content-Length. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;
/** What is read and thrown away after refusing a body, so that the client reads the answer; beyond, the connection is cut. */
const DRAIN_LIMIT_BYTES = 256 * 1024 * 1024;

const FILES = Symbol('plaza.multipartFiles');

/** The files of a multipart request read by `readMultipart` (empty for any other request). */
export function receivedFiles(ctx: Context): ReceivedFile[] {
  return ((ctx.state as Record<symbol, unknown>)[FILES] as ReceivedFile[] | undefined) ?? [];
}

/**
 * Reads a multipart/form-data body (upload.php) with koa-body's formidable: files are streamed into a
 * temporary directory of this request, never held in memory, and cut off as soon as they pass
 * `maxFileBytes` (413, formidable's `maxTotalFileSize` counts while streaming; `maxFileSize` only
 * when a part ends). The fields become the request body. `next` runs with the files in place; the
 * directory and everything in it (a partial file after a 413 included) is removed afterwards,
 * whatever happened.
 */
export async function readMultipart(ctx: Context, options: MultipartOptions, next: () => Promise<void>): Promise<void> {
  const declared = Number(ctx.get('Content-Length') || '0');
  if (declared > options.maxFileBytes + FORM_OVERHEAD_BYTES) {
    discardRest(ctx.req);
    throw tooLarge(options.maxFileBytes);
  }
  await mkdir(options.tmpDir, { recursive: true });
  const dir = await mkdtemp(join(options.tmpDir, 'upload-'));
  try {
    const parse = koaBody({
      multipart: true,
      json: false,
      urlencoded: false,
      text: false,
      parsedMethods: [HttpMethodEnum.POST],
      formidable: {
        uploadDir: dir,
        maxFileSize: options.maxFileBytes,
        maxTotalFileSize: options.maxFileBytes,
        maxFields: 20,
        maxFieldsSize: 64 * 1024,
        allowEmptyFiles: true,
        minFileSize: 0,
        keepExtensions: false,
      },
    });
    try {
      await parse(ctx, async () => {});
    } catch (error) {
      discardRest(ctx.req);
      throw multipartError(error, options.maxFileBytes);
    }
    const files = (ctx.request as { files?: Record<string, unknown> }).files ?? {};
    (ctx.state as Record<symbol, unknown>)[FILES] = Object.entries(files).flatMap(([field, value]) =>
      (Array.isArray(value) ? value : [value]).map((f: { filepath: string; originalFilename?: string | null; size: number }) => ({
        field,
        path: f.filepath,
        originalName: f.originalFilename ?? '',
        size: f.size,
      })),
    );
    await next();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function tooLarge(max: number): PayloadTooLarge {
  return new PayloadTooLarge(`The file is larger than ${Math.round(max / 1024 / 1024)} MB`, 'file_too_large');
}

/** formidable's failures (`httpCode`, no `status`) as the client's errors. */
function multipartError(error: unknown, max: number): unknown {
  const e = error as { httpCode?: number; status?: number; message?: string } | null;
  const status = e?.httpCode ?? e?.status;
  if (status === 413) return tooLarge(max);
  if (status !== undefined && status >= 400 && status < 500) {
    return new Invalid(`The multipart/form-data body could not be read: ${String(e?.message ?? '').slice(0, 160)}`, 'malformed_multipart');
  }
  return error;
}

/**
 * After a refusal, the rest of the body is read and dropped (not stored, not kept), so that a client
 * that sends the whole body before reading the answer (the mobile app) gets the 413 rather than a
 * reset connection; past `DRAIN_LIMIT_BYTES` the connection is cut.
 */
function discardRest(req: IncomingMessage): void {
  if (req.readableEnded || req.destroyed) return;
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) req.destroy();
  });
  req.resume();
}
