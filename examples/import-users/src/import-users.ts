import { randomBytes } from 'node:crypto';
import { DomainError } from '@plaza/domain';
import type { Plaza } from '@plaza/server';
import type { UserRow } from './csv.js';

export interface ImportProgress {
  done: number;
  total: number;
  created: number;
  failed: number;
}

export interface ImportReport {
  created: { line: number; id: number; username: string; invited: boolean }[];
  failed: { line: number; username: string; reason: string }[];
}

/**
 * Registers each row through Plaza's own registration use case, so the API's rules apply (name
 * pattern, password length, unique names and e-mails). A row without a password gets a random one
 * and a password-reset mail: the person chooses their own. One bad row never stops the others.
 */
export async function importUsers(
  plaza: Plaza,
  rows: UserRow[],
  onProgress: (p: ImportProgress) => void = () => {},
): Promise<ImportReport> {
  const report: ImportReport = { created: [], failed: [] };
  const progress = () =>
    onProgress({
      done: report.created.length + report.failed.length,
      total: rows.length,
      created: report.created.length,
      failed: report.failed.length,
    });
  progress();
  for (const row of rows) {
    try {
      const invited = row.password === null;
      const password = row.password ?? randomBytes(18).toString('base64url');
      const user = await plaza.accounts.auth.register({ username: row.username, email: row.email, password, cause: row.cause });
      if (invited) await plaza.accounts.auth.forgotPassword(user.email);
      report.created.push({ line: row.line, id: user.id, username: user.username, invited });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      report.failed.push({ line: row.line, username: row.username, reason: error.message });
    }
    progress();
  }
  return report;
}

/** One line redrawn in place on a terminal; a line per tenth elsewhere (CI logs, pipes). */
export function progressBar(stream: NodeJS.WriteStream, width = 30): (p: ImportProgress) => void {
  let lastTenth = -1;
  return (p) => {
    const ratio = p.total ? p.done / p.total : 1;
    const filled = Math.round(ratio * width);
    const text = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${p.done}/${p.total}  created ${p.created}  failed ${p.failed}`;
    if (stream.isTTY) {
      stream.write(`\r${text}${p.done === p.total ? '\n' : ''}`);
      return;
    }
    const tenth = Math.floor(ratio * 10);
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      stream.write(`${text}\n`);
    }
  };
}
