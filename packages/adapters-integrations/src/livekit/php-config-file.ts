import { readFile, stat } from 'node:fs/promises';

/**
 * Reads the string entries of a PHP configuration file of the form `<?php return [ 'key' => 'value', … ];`,
 * the format the main application and the admin panel write (`config/media_server.local.php`). Only
 * single- or double-quoted string literals are read; anything else is ignored, and no PHP runs.
 */
export function parsePhpConfigArray(source: string): Record<string, string> {
  // Tokens: quoted strings, `=>`, and separators; comments are skipped, so a commented-out entry is not read.
  const tokens: ({ kind: 'string'; value: string } | { kind: 'arrow' } | { kind: 'other' })[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      let raw = '';
      while (j < source.length && source[j] !== ch) {
        if (source[j] === '\\' && j + 1 < source.length) {
          raw += source[j] + source[j + 1];
          j += 2;
        } else raw += source[j++];
      }
      tokens.push({ kind: 'string', value: unescape(raw, ch) });
      i = j + 1;
    } else if (source.startsWith('//', i) || ch === '#') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? source.length : end + 1;
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
    } else if (source.startsWith('=>', i)) {
      tokens.push({ kind: 'arrow' });
      i += 2;
    } else {
      if (!/\s/.test(ch)) tokens.push({ kind: 'other' });
      i += 1;
    }
  }
  const out: Record<string, string> = {};
  for (let t = 0; t + 2 < tokens.length; t++) {
    const [k, arrow, v] = [tokens[t], tokens[t + 1], tokens[t + 2]];
    if (k.kind === 'string' && arrow.kind === 'arrow' && v.kind === 'string') out[k.value] = v.value;
  }
  return out;
}

function unescape(value: string, quote: string): string {
  // PHP single-quoted strings only know \\ and \'; double-quoted ones also \" and the usual escapes.
  if (quote === "'") return value.replace(/\\(['\\])/g, '$1');
  return value
    .replace(/\\(["\\$])/g, '$1')
    .replace(/\\n/g, '\n')
    .replace(/\\t/g, '\t');
}

/** A PHP configuration file read again whenever it changes on disk (the admin panel rewrites it). */
export class WatchedPhpConfig {
  private cached: { mtimeMs: number; size: number; values: Record<string, string> } | null = null;

  constructor(readonly path: string) {}

  /** The file's entries, or null when it does not exist. */
  async read(): Promise<Record<string, string> | null> {
    let info;
    try {
      info = await stat(this.path);
    } catch {
      this.cached = null;
      return null;
    }
    if (!this.cached || this.cached.mtimeMs !== info.mtimeMs || this.cached.size !== info.size) {
      this.cached = { mtimeMs: info.mtimeMs, size: info.size, values: parsePhpConfigArray(await readFile(this.path, 'utf8')) };
    }
    return this.cached.values;
  }
}
