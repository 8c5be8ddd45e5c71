/**
 * Where create-user takes the password when `--password` is absent: one line of standard input when it
 * is not a terminal (`printf '%s\n' "$PW" | npm run create-user -- …`, a secret file, a pipe from a
 * password manager), else a prompt that echoes nothing. Either way the password stays out of the
 * shell's history and the process list.
 */

/** The input side: a readable stream, with a terminal's raw mode when it is one (process.stdin). */
export interface PasswordSource extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
}

export class PasswordInputError extends Error {}

/** The first line of a non-terminal input (without its line ending); refuses an empty one. */
export async function readPasswordLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.includes('\n')) break;
  }
  const line = text.split('\n')[0].replace(/\r$/, '');
  if (!line) throw new PasswordInputError('no password on standard input (one line expected)');
  return line;
}

/** Asks on `output` and reads keystrokes from the terminal in raw mode, echoing nothing; Enter ends, Ctrl-C or Ctrl-D gives up. */
export function promptPassword(input: PasswordSource, output: NodeJS.WritableStream, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = '';
    output.write(prompt);
    input.setRawMode?.(true);
    input.resume();
    const finish = (error: Error | null) => {
      input.removeListener('data', onData);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish(null);
        if (ch === '\u0003' || ch === '\u0004') return finish(new PasswordInputError('cancelled'));
        if (ch === '\u007f' || ch === '\b') typed = [...typed].slice(0, -1).join('');
        else if (ch >= ' ') typed += ch;
      }
    };
    input.on('data', onData);
  });
}

/** The password from `input`: a line when piped, a silent prompt (asked twice, to catch a typo) on a terminal. */
export async function readPassword(input: PasswordSource, output: NodeJS.WritableStream): Promise<string> {
  if (!input.isTTY) return readPasswordLine(input);
  const first = await promptPassword(input, output, 'Password (not shown): ');
  if (!first) throw new PasswordInputError('no password typed');
  const again = await promptPassword(input, output, 'Again: ');
  if (again !== first) throw new PasswordInputError('the two passwords differ');
  return first;
}
