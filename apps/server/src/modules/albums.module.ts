import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { AlbumRepository, AlbumService } from '@plaza/domain/albums';
import { albumsScript } from '@plaza/adapters-http/scripts/albums';
import { ALBUMS_MIGRATIONS, SqlAlbumAccountData, SqlAlbumRepository } from '@plaza/adapters-mysql/albums';
import { featureModule } from '../wiring/feature-module.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Content } from './content.module.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';

export const Albums = {
  AlbumService: token<AlbumService>('albums.AlbumService'),
};

/** Photo albums (docs/decisions/0038). */
export const albumsModule = featureModule((w) => {
  w.migrations(ALBUMS_MIGRATIONS);
  w.accountData([DatabaseToken], ({ db }) => new SqlAlbumAccountData(db));
  w.bind(AlbumRepository, [DatabaseToken], ({ db, dialect }) => new SqlAlbumRepository(db, dialect));
  w.bind(
    Albums.AlbumService,
    [AlbumRepository, UserRepository, Content.PostService, Clock, UnitOfWork, Media.References],
    // The one visibility rule: an album is seen by whoever sees its owner's posts.
    (albums, users, posts, clock, uow, media) => new AlbumService(albums, users, posts.visibility, clock, uow, media),
  );
  w.script([Albums.AlbumService, Platform.Presenters], albumsScript);
});
