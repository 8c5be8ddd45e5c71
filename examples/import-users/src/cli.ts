import { readFile } from 'node:fs/promises';
import { createPlaza, type PlazaLibraryOptions } from '@plaza/server';
import { userRows } from './csv.js';
import { importUsers, progressBar } from './import-users.js';

export interface CliIo {
  out(line: string): void;
  progress: NodeJS.WriteStream;
}

/** The whole command, minus process.exit: returns its exit code (0 all imported, 1 some refused, 2 usage). */
export async function runImport(args: string[], io: CliIo, options: PlazaLibraryOptions = {}): Promise<number> {
  const file = args[0];
  if (!file) {
    io.out('Usage: node examples/import-users/dist/main.js <file.csv>');
    return 2;
  }
  const rows = userRows(await readFile(file, 'utf8'));
  const plaza = await createPlaza(options);
  try {
    const report = await importUsers(plaza, rows, progressBar(io.progress));
    for (const f of report.failed) io.out(`line ${f.line} (${f.username || 'no username'}): ${f.reason}`);
    const invited = report.created.filter((c) => c.invited).length;
    io.out(`${report.created.length} created (${invited} invited to choose a password), ${report.failed.length} refused`);
    return report.failed.length ? 1 : 0;
  } finally {
    await plaza.close();
  }
}
