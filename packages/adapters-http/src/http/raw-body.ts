import type { IncomingMessage } from 'node:http';
import { PayloadTooLarge, UnsupportedMediaType } from '@plaza/domain';

/**
 * The exact bytes of a request body the JSON parser left alone, for signatures computed over them
 * (media-server webhooks, sent as `application/webhook+json`). A body the parser already consumed
 * cannot be verified: that is a 415 asking for the signed content type.
 */
export async function readRawBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  if (req.readableEnded || req.readableDidRead) {
    throw new UnsupportedMediaType('Send the signed body as application/webhook+json, as the media server does', 'unsupported_media_type');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new PayloadTooLarge('Event body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
