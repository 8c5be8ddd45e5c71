import { UnsupportedMediaType } from '@plaza/domain';
import type { Context } from 'koa';

/** The content types read as JSON bodies (koa-body's `jsonTypes` defaults, which app.ts passes it). */
export const JSON_BODY_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/csp-report',
  'application/reports+json',
];
const FORM_TYPE = 'application/x-www-form-urlencoded';
const MULTIPART_TYPE = 'multipart/form-data';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The refusal of a body Plaza does not read, for an operation that takes one: a `text/plain` body (or
 * one without a Content-Type) on a JSON endpoint would otherwise be dropped unread and the request
 * answered as if it had sent nothing ("content is required"). 415, naming the types the operation
 * reads; multipart/form-data only where the operation takes files (upload.php). Null when the body
 * was read, or there is none.
 */
export function unreadBodyRefusal(ctx: Context, script: string, multipart: boolean): UnsupportedMediaType | null {
  if (!BODY_METHODS.has(ctx.method) || !hasBody(ctx)) return null;
  const reads = [...JSON_BODY_TYPES.slice(0, 1), FORM_TYPE, ...(multipart ? [MULTIPART_TYPE] : [])];
  if (ctx.is([...JSON_BODY_TYPES, FORM_TYPE, ...(multipart ? [MULTIPART_TYPE] : [])])) return null;
  const sent = ctx.get('Content-Type').split(';')[0].trim().slice(0, 80);
  const types = `${reads.slice(0, -1).join(', ')} or ${reads[reads.length - 1]}`;
  return new UnsupportedMediaType(
    `${script}.php reads a body sent as ${types}; this one is ${sent ? `sent as ${sent}` : 'sent without a Content-Type'}`,
    'unsupported_media_type',
  );
}

function hasBody(ctx: Context): boolean {
  const length = ctx.get('Content-Length');
  return ctx.get('Transfer-Encoding') !== '' || (length !== '' && length !== '0');
}
