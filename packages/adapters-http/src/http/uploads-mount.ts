import { open, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { NotFound } from '@plaza/domain';
import { parseMediaReference, UPLOAD_TYPES, type UploadType } from '@plaza/domain/media';
import type { HttpMount } from './mount.js';

/**
 * The content type of each extension a media reference may carry (domain/media/reference.ts): what is
 * served is named by its stored extension, never sniffed, and every one of them is a media type.
 */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  webm: 'video/webm',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mkv: 'video/x-matroska',
  ogg: 'video/ogg',
  ogv: 'video/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
};

const ALL_TYPES = Object.keys(UPLOAD_TYPES) as UploadType[];

/**
 * A path as upload.php names files: `/uploads/` and at most one folder, then a name of letters, digits,
 * `_`, `-` and dots. Stored names never need percent-encoding, so any `%` (an encoded `..`, `/` or `\`,
 * or a doubled encoding) is refused before anything is decoded.
 */
const UPLOAD_PATH = /^\/uploads\/(?:[a-z]+\/)?[A-Za-z0-9_.-]+$/;

/** Stored names are random and a stored file is never rewritten: a year, and no revalidation. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * GET and HEAD `/uploads/...` (docs/decisions/0107): the files upload.php stored under
 * `API_UPLOADS_PATH`, for a server that no main web application stands beside. Only what a media
 * reference may name is served (a known folder, its prefixes and extensions: parseMediaReference), from
 * inside the uploads directory once every symbolic link is resolved; never a directory, a hidden `.part`
 * file or anything else (404). Ranges (206/416), ETag and Last-Modified validators (304), and a year of
 * caching. Off (`enabled` false), the path is not matched and answers as any unknown path.
 */
export function uploadsMount(uploadsPath: string, enabled: boolean): HttpMount {
  return {
    matches: (path) => enabled && (path === '/uploads' || path.startsWith('/uploads/')),
    // Nothing is read from a request body: one is refused (413) before the handler.
    maxBodyBytes: 0,
    fetch: (request) => serveUpload(uploadsPath, request),
  };
}

async function serveUpload(uploadsPath: string, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return errorResponse(405, 'Uploads are read with GET or HEAD', 'method_not_allowed', { Allow: 'GET, HEAD' });
  }
  const file = await uploadedFile(uploadsPath, new URL(request.url).pathname);
  if (!file) throw new NotFound('No such file', 'file_not_found');
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) throw new NotFound('No such file', 'file_not_found');
  let streaming = false;
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotFound('No such file', 'file_not_found');
    const size = info.size;
    const etag = `"${size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    const lastModified = new Date(Math.floor(info.mtimeMs / 1000) * 1000);
    const validators = { ETag: etag, 'Last-Modified': lastModified.toUTCString(), 'Cache-Control': CACHE_CONTROL };
    if (notModified(request.headers, etag, lastModified)) return new Response(null, { status: 304, headers: validators });

    const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
    const headers: Record<string, string> = {
      ...validators,
      'Content-Type': CONTENT_TYPES[ext],
      // Every type served is a media type, shown in place; a document of ours could run nothing anyway.
      'Content-Disposition': 'inline',
      'Accept-Ranges': 'bytes',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': 'sandbox',
    };
    const range = rangeOf(request.headers, size, etag, lastModified);
    if (range === 'unsatisfiable') {
      return errorResponse(416, `The requested range is outside the file (${size} bytes)`, 'range_not_satisfiable', {
        'Content-Range': `bytes */${size}`,
      });
    }
    const [start, end] = range ?? [0, size - 1];
    headers['Content-Length'] = String(Math.max(0, end - start + 1));
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    const status = range ? 206 : 200;
    if (request.method === 'HEAD' || size === 0) return new Response(null, { status, headers });
    // The handle closes when the stream ends, fails or is abandoned by a client that went away.
    const stream = Readable.toWeb(handle.createReadStream({ start, end })) as NodeReadableStream<Uint8Array>;
    streaming = true;
    return new Response(stream as unknown as ReadableStream<Uint8Array>, { status, headers });
  } finally {
    if (!streaming) await handle.close();
  }
}

/**
 * The real path of the upload a URL path names, or null: a path of upload form that a media reference
 * of some type may name in its own folder, and whose file, symbolic links resolved, is inside the
 * uploads directory.
 */
async function uploadedFile(uploadsPath: string, path: string): Promise<string | null> {
  if (!UPLOAD_PATH.test(path)) return null;
  const ref = parseMediaReference(path.slice(1), ALL_TYPES);
  if (!ref || `/${ref.path}` !== path || !CONTENT_TYPES[ref.name.slice(ref.name.lastIndexOf('.') + 1).toLowerCase()]) return null;
  try {
    const root = await realpath(uploadsPath);
    const real = await realpath(join(root, ref.path.slice('uploads/'.length)));
    return real.startsWith(root + sep) ? real : null;
  } catch {
    return null;
  }
}

/** If-None-Match (a list, weak comparison, or `*`) decides when sent; otherwise If-Modified-Since. */
function notModified(headers: Headers, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    return ifNoneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t.replace(/^W\//, '') === etag;
    });
  }
  const since = Date.parse(headers.get('if-modified-since') ?? '');
  return !Number.isNaN(since) && lastModified.getTime() <= since;
}

/**
 * The one byte range asked for: `[start, end]` inclusive, `'unsatisfiable'` (416), or null to answer
 * the whole file (no Range, one this server does not take such as several ranges, a malformed one, or
 * an If-Range that no longer matches).
 */
function rangeOf(headers: Headers, size: number, etag: string, lastModified: Date): [number, number] | 'unsatisfiable' | null {
  const header = headers.get('range');
  if (header === null) return null;
  const ifRange = headers.get('if-range');
  if (ifRange !== null) {
    const current = /^(W\/)?"/.test(ifRange.trim()) ? ifRange.trim() === etag : Date.parse(ifRange) === lastModified.getTime();
    if (!current) return null;
  }
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(m[1]);
  if (start >= size) return 'unsatisfiable';
  const last = m[2] === '' ? size - 1 : Number(m[2]);
  if (last < start) return null;
  return [start, Math.min(last, size - 1)];
}

/** The API's error body (`success`, `error`, `message`, `code`) for answers built here rather than thrown. */
function errorResponse(status: number, message: string, code: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ success: false, error: message, message, code }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}
