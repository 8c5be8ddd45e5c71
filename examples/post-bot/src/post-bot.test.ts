import { mkdtempSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingMailer } from '@plaza/domain/accounts/testing';
import { createPlaza } from '@plaza/server';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { runBot } from './post-bot.js';

describe('the post-bot example', () => {
  it('posts each new line of a feed as the bot, skips what it already posted, and refuses what posts.php refuses', async () => {
    const database = await openTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'plaza-bot-'));
    const options = { env: { API_DATA_DIR: dir, BCRYPT_COST: '4' }, database, mailer: new RecordingMailer() };
    try {
      const plaza = await createPlaza(options);
      const bot = await plaza.accounts.auth.register({ username: 'newsbot', email: 'bot@news.test', password: 'a long password' });
      await plaza.close();
      const feed = join(dir, 'news.txt');
      writeFileSync(feed, 'Version 2 is out\n\nThe mirror moved\n');
      const lines: string[] = [];
      expect(await runBot(['newsbot', feed], (l) => lines.push(l), options)).toBe(0);
      expect(lines.at(-1)).toBe('2 posted, 0 already posted');
      appendFileSync(feed, 'Maintenance on Sunday\n');
      expect(await runBot(['newsbot', feed], (l) => lines.push(l), options)).toBe(0);
      expect(lines.at(-1)).toBe('1 posted, 2 already posted');
      const posts = await database.db.selectFrom('posts').select(['user_id', 'content']).orderBy('id').execute();
      expect(posts).toEqual(
        ['Version 2 is out', 'The mirror moved', 'Maintenance on Sunday'].map((content) => ({ user_id: bot.id, content })),
      );

      // A line too long for a post is refused as posts.php refuses it; nothing half-done.
      appendFileSync(feed, `${'x'.repeat(10_001)}\n`);
      expect(await runBot(['newsbot', feed], (l) => lines.push(l), options)).toBe(1);
      expect(lines.at(-1)).toMatch(/^cannot post: .*content/);
      expect(await runBot(['ghost', feed], (l) => lines.push(l), options)).toBe(1);
      expect(lines.at(-1)).toMatch(/^no account ghost/);
    } finally {
      await database.drop();
    }
  }, 240_000); // createPlaza several times on MariaDB: each opens the container and checks the schema
});
