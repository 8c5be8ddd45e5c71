import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { DomainError, NotFound } from '@plaza/domain';
import { actorOf, UserRepository } from '@plaza/domain/accounts';
import { createPlaza, type Plaza, type PlazaLibraryOptions } from '@plaza/server';

/**
 * Writes one account's data, as export.php hands it to its owner (profile, posts, comments, messages,
 * follows… every context's part, docs/decisions/0093), to a JSON file: what an operator runs when a
 * person asks for their data by mail. The account is found by username or e-mail; nothing secret is in
 * the file (no password hash, no TOTP secret, no token).
 */
export async function exportAccount(plaza: Plaza, login: string, file: string): Promise<{ userId: number; bytes: number }> {
  const user = await plaza.get(UserRepository).findByLogin(login);
  if (!user) throw new NotFound(`no account ${login}`);
  const out = createWriteStream(file);
  let bytes = 0;
  for await (const piece of await plaza.accounts.export.json(actorOf(user))) {
    bytes += Buffer.byteLength(piece);
    if (!out.write(piece)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
  return { userId: user.id, bytes };
}

/** The command: `node examples/export-account/dist/main.js <username or e-mail> <file.json>`; returns its exit code. */
export async function runExport(args: string[], out: (line: string) => void, options: PlazaLibraryOptions = {}): Promise<number> {
  const [login, file] = args;
  if (!login || !file) {
    out('Usage: node examples/export-account/dist/main.js <username or e-mail> <file.json>');
    return 2;
  }
  const plaza = await createPlaza(options);
  try {
    const { userId, bytes } = await exportAccount(plaza, login, file);
    out(`account #${userId} exported to ${file} (${bytes} bytes)`);
    return 0;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    out(`cannot export: ${error.message}`);
    return 1;
  } finally {
    await plaza.close();
  }
}
