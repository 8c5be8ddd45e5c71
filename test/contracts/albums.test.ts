import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { albumsContract, InMemoryAlbumRepository } from '@plaza/domain/albums/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlAlbumRepository } from '@plaza/adapters-mysql/albums';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

albumsContract('in-memory', async () => ({ users: new InMemoryUserRepository(), albums: new InMemoryAlbumRepository() }));

albumsContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return { users: new SqlUserRepository(db), albums: new SqlAlbumRepository(db, dialect) };
});
