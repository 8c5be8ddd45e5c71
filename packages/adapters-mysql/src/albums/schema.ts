import type { Generated } from 'kysely';

export interface AlbumsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  description: string;
  photos_count: Generated<number>;
  cover: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface AlbumPhotosTable {
  id: Generated<number>;
  album_id: number;
  user_id: number;
  path: string;
  caption: string;
  created_at: string;
}

export interface AlbumsTables {
  albums: AlbumsTable;
  album_photos: AlbumPhotosTable;
}

declare module '../database.js' {
  interface Database extends AlbumsTables {}
}
