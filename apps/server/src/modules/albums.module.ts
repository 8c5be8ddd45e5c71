import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { AlbumRepository, AlbumService } from '@plaza/domain/albums';
import { albumsScript, newAlbumBody, photoCaption } from '@plaza/adapters-http/scripts/albums';
import { z } from 'zod';
import { ALBUMS_MIGRATIONS, SqlAlbumAccountData, SqlAlbumRepository } from '@plaza/adapters-mysql/albums';
import { featureModule, useCases } from '../wiring/feature-module.js';
import { ACTOR, arg, id, pageRequest } from '../library-input.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Content } from './content.module.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';

export const Albums = {
  AlbumService: token<AlbumService>('albums.AlbumService'),
};

/** What albums offers outside the container (docs/decisions/0130): `createPlaza().albums`. */
const face = {
  name: 'albums',
  library: {
    albums: useCases(Albums.AlbumService, {
      ofUser: [ACTOR, id('userId'), pageRequest],
      details: [ACTOR, id('albumId'), pageRequest],
      create: [ACTOR, arg('input', newAlbumBody)],
      // The photo is a file uploaded with type album, named as upload.php answered it; `field` names it in a refusal.
      addPhoto: [
        ACTOR,
        id('albumId'),
        arg('raw', z.string().min(1, 'is required').max(512)),
        arg('caption', photoCaption),
        arg('field', z.enum(['photo', 'path', 'media']).optional()),
      ],
      delete: [ACTOR, id('albumId')],
    }),
  },
  ports: {
    AlbumRepository: { suites: ['albums/testing/albums.contract.ts'], via: 'albums' },
  },
} as const;

/** Photo albums (docs/decisions/0038). */
export const albumsModule = featureModule(face, (w) => {
  w.migrations(ALBUMS_MIGRATIONS);
  w.accountData([DatabaseToken], ({ db }) => new SqlAlbumAccountData(db));
  w.bind(AlbumRepository, [DatabaseToken], ({ db, dialect }) => new SqlAlbumRepository(db, dialect));
  w.bind(
    Albums.AlbumService,
    { albums: AlbumRepository, users: UserRepository, posts: Content.PostService, clock: Clock, uow: UnitOfWork, media: Media.References },
    // The one visibility rule: an album is seen by whoever sees its owner's posts.
    ({ albums, users, posts, clock, uow, media }) => new AlbumService(albums, users, posts.visibility, clock, uow, media),
  );
  w.script([Albums.AlbumService, Platform.Presenters], albumsScript);
});
