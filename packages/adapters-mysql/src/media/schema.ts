import type { Generated } from 'kysely';

/** The files upload.php stored (docs/decisions/0114). */
export interface UploadsTable {
  id: Generated<number>;
  owner_id: number;
  type: string;
  path: string;
  size: number | null;
  sha256: string | null;
  created_at: string;
  referenced_at: string | null;
  erased_at: string | null;
}

export interface MediaTables {
  uploads: UploadsTable;
}

declare module '../database.js' {
  interface Database extends MediaTables {}
}
