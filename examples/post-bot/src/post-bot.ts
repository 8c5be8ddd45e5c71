import { readFile } from 'node:fs/promises';
import { DomainError } from '@plaza/domain';
import { actorOf, type UserRecord, UserRepository } from '@plaza/domain/accounts';
import { createPlaza, type Plaza, type PlazaLibraryOptions } from '@plaza/server';

/**
 * A bot that posts: each line of a text feed (a changelog, a notice board, a feed reader's output)
 * becomes a post of the bot's account, through the same use case as posts.php, so the same rules apply
 * (length, rate of the service, visibility). Lines the bot already posted (its latest posts) are
 * skipped, so it can run from cron on a growing file.
 */
export async function postLines(plaza: Plaza, bot: UserRecord, lines: string[]): Promise<{ posted: number[]; skipped: number }> {
  const actor = actorOf(bot);
  const recent = await plaza.content.posts.wall(actor, bot.id, 1, 100);
  const seen = new Set(recent.items.map((v) => v.post.content));
  const posted: number[] = [];
  let skipped = 0;
  for (const line of lines.map((l) => l.trim()).filter(Boolean)) {
    if (seen.has(line)) {
      skipped += 1;
      continue;
    }
    const view = await plaza.content.posts.create(actor, { content: line, media: [], media_type: null, tags: [] });
    posted.push(view.post.id);
    seen.add(line);
  }
  return { posted, skipped };
}

/** The command: `node examples/post-bot/dist/main.js <bot username> <feed.txt>`; returns its exit code. */
export async function runBot(args: string[], out: (line: string) => void, options: PlazaLibraryOptions = {}): Promise<number> {
  const [login, file] = args;
  if (!login || !file) {
    out('Usage: node examples/post-bot/dist/main.js <bot username> <feed.txt>');
    return 2;
  }
  const lines = (await readFile(file, 'utf8')).split('\n');
  const plaza = await createPlaza(options);
  try {
    const bot = await plaza.get(UserRepository).findByLogin(login);
    if (!bot) {
      out(`no account ${login}: create it first (npm run create-user)`);
      return 1;
    }
    const { posted, skipped } = await postLines(plaza, bot, lines);
    out(`${posted.length} posted, ${skipped} already posted`);
    return 0;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    out(`cannot post: ${error.message}`);
    return 1;
  } finally {
    await plaza.close();
  }
}
