import { parseMediaReference, type UploadType } from '../media/reference.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { NotFound } from '../shared/errors.js';
import { toTimestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { UserRepository } from './ports.js';
import type { PreferenceService } from './preferences.js';
import type { UserRecord } from './user.js';

/**
 * An export section's name: each context names its own (`posts`, `following`, `messages`…) in its
 * AccountDataPart (account-data.ts). `media` is the service's, gathered from every part.
 */
export type ExportSection = string;
export const MEDIA_SECTION = 'media';

export type ExportRow = Record<string, unknown>;

/** A media file of the user, as its path under the uploads directory's parent (`uploads/posts/x.jpg`). */
export interface ExportMedia {
  path: string;
  /** Which row it belongs to: `post:12`, `story:3`, `message:8`, `group_message:4`, `avatar`, `banner`. */
  source: string;
}

/** What the reader's `media` section yields: a stored value and the upload kind that resolves it. */
export interface StoredMedia {
  value: string;
  kind: UploadType;
  source: string;
}

/**
 * The file a stored value names, resolved as the display side resolves it; null for what is no upload
 * of this instance (the `default.svg` placeholder, a remote URL, a legacy value).
 */
export function exportedMedia(stored: StoredMedia): ExportMedia | null {
  if (stored.value === 'default.svg' || /^https?:/i.test(stored.value)) return null;
  const ref = parseMediaReference(stored.value, [stored.kind]);
  return ref ? { path: ref.path, source: stored.source } : null;
}

/** A post as the ActivityStreams outbox of an export archive lists it. */
export interface ExportedPost {
  id: number;
  content: string;
  media: string[];
  media_type: string | null;
  tags: string[];
  created_at: string;
  updated_at: string | null;
}

/** The user's posts in the order of an ActivityPub outbox (oldest first), in batches: the content context's. */
export interface ExportedPosts {
  posts(userId: number): AsyncIterable<ExportedPost>;
}
export const ExportedPosts = token<ExportedPosts>('ExportedPosts');

/**
 * Reads everything of one user, one section at a time. Each section is read in id order in bounded
 * batches (keyset pages), so an export's memory does not grow with the account.
 */
export interface AccountDataReader extends ExportedPosts {
  /** The sections, in the order the document writes them; `media` is not one of them. */
  readonly sections: readonly ExportSection[];
  rows(userId: number, section: ExportSection): AsyncIterable<ExportRow>;
  /** Every upload reference stored in the user's rows, of every context. */
  media(userId: number): AsyncIterable<StoredMedia>;
}
export const AccountDataReader = token<AccountDataReader>('AccountDataReader');

async function* exportedMediaOf(stored: AsyncIterable<StoredMedia>): AsyncGenerator<ExportMedia> {
  for await (const row of stored) {
    const media = exportedMedia(row);
    if (media) yield media;
  }
}

/** Joins the strings of a stream into chunks of about `size` characters: fewer, larger writes. */
async function* chunked(parts: AsyncIterable<string>, size = 64 * 1024): AsyncGenerator<string> {
  let buffer = '';
  for await (const part of parts) {
    buffer += part;
    if (buffer.length >= size) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}

/** The account's own fields (a `UserRecord` holds no secret: docs/decisions/0113). */
export function exportedProfile(user: UserRecord): ExportRow {
  const { deleted_at: _d, ...rest } = user;
  return rest;
}

/** export.php: the user's data as one JSON document, written as it is read. */
export class ExportService {
  constructor(
    private readonly users: UserRepository,
    private readonly reader: AccountDataReader,
    private readonly preferences: PreferenceService,
    private readonly clock: Clock,
  ) {}

  async account(actor: Actor): Promise<UserRecord> {
    const user = await this.users.findById(actor.userId);
    if (!user) throw new NotFound('User not found', 'user_not_found');
    return user;
  }

  /** The document as text chunks; nothing is read before the consumer asks for the next chunk. */
  async json(actor: Actor): Promise<AsyncIterable<string>> {
    const user = await this.account(actor);
    const preferences = await this.preferences.view(actor);
    const exportedAt = toTimestamp(this.clock.now());
    const reader = this.reader;
    async function* parts(): AsyncGenerator<string> {
      yield `{"format":"plaza-export","version":1,"exported_at":${JSON.stringify(exportedAt)}`;
      yield `,"profile":${JSON.stringify(exportedProfile(user))},"preferences":${JSON.stringify(preferences)}`;
      for (const section of [...reader.sections, MEDIA_SECTION]) {
        yield `,${JSON.stringify(section)}:[`;
        let first = true;
        const rows = section === MEDIA_SECTION ? exportedMediaOf(reader.media(user.id)) : reader.rows(user.id, section);
        for await (const row of rows) {
          yield (first ? '' : ',') + JSON.stringify(row);
          first = false;
        }
        yield ']';
      }
      yield '}\n';
    }
    return chunked(parts());
  }

  /** The user's media files, for the ZIP archive. */
  media(actor: Actor): AsyncIterable<ExportMedia> {
    return exportedMediaOf(this.reader.media(actor.userId));
  }

  /** The user's posts, oldest first, for the ActivityStreams outbox of the archive. */
  posts(actor: Actor) {
    return this.reader.posts(actor.userId);
  }
}
