import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import { UPLOAD_TYPES, type UploadType } from './reference.js';
import { UPLOAD_DESTINATIONS, UPLOAD_TYPE_NAMES, type UploadTypeName } from './upload.js';

/**
 * The record of a file upload.php stored (docs/decisions/0114): who uploaded it, as what, where. A
 * media reference is accepted only for the caller's own upload (or a teammate's, where a team edits
 * the record), and files that nothing references are collected after a while.
 */
export interface UploadRecord {
  id: number;
  owner_id: number;
  /** The upload type it was stored as (upload.php's `type`). */
  type: UploadTypeName;
  /** Relative to the uploads root's parent, as served: `uploads/posts/media_ab12.jpg`. Unique. */
  path: string;
  /** Null for files adopted from before the uploads table (0114). */
  size: number | null;
  sha256: string | null;
  created_at: Timestamp;
  /** Set when a reference to it was first accepted, never cleared: a referenced file is never collected as an orphan. */
  referenced_at: Timestamp | null;
  /** Set when its owner's account was erased: the collection job removes the file. */
  erased_at: Timestamp | null;
}

export type NewUpload = Pick<UploadRecord, 'owner_id' | 'type' | 'path' | 'size' | 'sha256' | 'created_at'>;

/** The uploads table. Every change that races with a reference (`markReferenced`, `removeCollectable`) is one conditional write. */
export interface UploadRegistry {
  record(upload: NewUpload): Promise<UploadRecord>;
  findByPath(path: string): Promise<UploadRecord | null>;
  /** Marks the upload referenced (once; later calls keep the first time). False when the record is gone (collected meanwhile). */
  markReferenced(id: number, at: Timestamp): Promise<boolean>;
  /** Uploads never referenced, created before `before`, oldest first; not those of erased owners. */
  unreferencedBefore(before: Timestamp, limit: number): Promise<UploadRecord[]>;
  /** Uploads of erased owners. */
  erased(limit: number): Promise<UploadRecord[]>;
  /**
   * Removes the record if it may still be collected: erased, or never referenced and created before
   * `before`. False when a reference was accepted meanwhile (the file stays) or it is already gone.
   */
  removeCollectable(id: number, before: Timestamp): Promise<boolean>;
  /** Marks every upload of the owner erased (account deletion, inside its unit of work); how many. */
  eraseOwner(ownerId: number, at: Timestamp): Promise<number>;
}
export const UploadRegistry = token<UploadRegistry>('media.UploadRegistry');

/** The stored files themselves, by relative path (`uploads/posts/media_ab12.jpg`). */
export interface UploadFiles {
  /** Size and SHA-256 (hex) of a stored file. */
  digest(path: string): Promise<{ size: number; sha256: string }>;
  /** Deletes the file; false when there was none. */
  remove(path: string): Promise<boolean>;
}
export const UploadFiles = token<UploadFiles>('media.UploadFiles');

/** The reference type of each upload type, for the check that an upload fits a field. */
export function referenceTypeOf(type: UploadTypeName): UploadType {
  return UPLOAD_DESTINATIONS[type].kind;
}

/**
 * The upload type that stores a path (`uploads/page_x.jpg` → page), for files adopted from before the
 * uploads table: the type whose folder and prefix produce it, the longest prefix winning
 * (`group_post_` over `group_`). Null for a path no upload type produces.
 */
export function uploadTypeOfPath(path: string): UploadTypeName | null {
  let best: { type: UploadTypeName; length: number } | null = null;
  for (const type of UPLOAD_TYPE_NAMES) {
    const { kind, prefix } = UPLOAD_DESTINATIONS[type];
    const at = UPLOAD_TYPES[kind].folder + prefix;
    if (path.startsWith(at) && !path.slice(UPLOAD_TYPES[kind].folder.length).includes('/') && (!best || at.length > best.length))
      best = { type, length: at.length };
  }
  if (best) return best.type;
  // Names of the main application's own prefixes (`stories_`, `msg_`) that no upload type produces today.
  for (const type of UPLOAD_TYPE_NAMES) {
    const kind = UPLOAD_DESTINATIONS[type].kind;
    const folder = UPLOAD_TYPES[kind].folder;
    const name = path.slice(folder.length);
    if (path.startsWith(folder) && !name.includes('/') && UPLOAD_TYPES[kind].prefixes.some((p) => name.startsWith(p))) return type;
  }
  return null;
}
