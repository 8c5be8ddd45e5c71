import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { FsUploadFiles } from '@plaza/adapters-integrations/upload-files';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlUploadRegistry } from '@plaza/adapters-mysql/media';
import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { InMemoryUploadRegistry, uploadRegistryContract } from '@plaza/domain/media/testing';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

uploadRegistryContract('in-memory', async () => ({ users: new InMemoryUserRepository(), registry: new InMemoryUploadRegistry() }));

uploadRegistryContract(`sql (${TEST_DIALECT})`, async () => {
  const { db } = database();
  return { users: new SqlUserRepository(db), registry: new SqlUploadRegistry(db) };
});

describe('FsUploadFiles', () => {
  it('digests a stored file and removes it once; refuses a path outside the uploads directory', async () => {
    const root = mkdtempSync('/tmp/plaza-upload-files-');
    const file = join(root, 'posts/media_ab.jpg');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'hello');
    const files = new FsUploadFiles(root);
    expect(await files.digest('uploads/posts/media_ab.jpg')).toEqual({
      size: 5,
      sha256: createHash('sha256').update('hello').digest('hex'),
    });
    expect(await files.remove('uploads/posts/media_ab.jpg')).toBe(true);
    expect(await files.remove('uploads/posts/media_ab.jpg')).toBe(false);
    await expect(files.remove('uploads/../../etc/passwd')).rejects.toThrow();
  });
});
