import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { MediaServerSettingsStore, MediaServerValues, TurnSettingsStore, TurnValues } from '@plaza/domain/admin';
import { WatchedPhpConfig } from '../livekit/php-config-file.js';

/** A PHP single-quoted string literal: only `\` and `'` need escaping. */
function phpString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** `<?php return [ 'key' => 'value', … ];`, the syntax of the main application's configuration files. */
export function phpConfigSource(entries: Record<string, string>, comment: string): string {
  const lines = Object.entries(entries).map(([k, v]) => `    ${phpString(k)} => ${phpString(v)},`);
  return `<?php\n// ${comment}\n// Written by Plaza's admin panel; read again whenever it changes.\nreturn [\n${lines.join('\n')}\n];\n`;
}

/**
 * Writes a file atomically with mode 0600: a temporary file in the same folder, then a rename, so a
 * reader (this process, another instance, the PHP application) sees the old file or the new one.
 */
export async function writeFileAtomically(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, content, { mode: 0o600, flag: 'wx' });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** `config/media_server.local.php`: `url`, `api_key`, `api_secret` (the main application's `livekit_*` keys are read too). */
export class PhpMediaServerSettingsFile implements MediaServerSettingsStore {
  private readonly watched: WatchedPhpConfig;
  constructor(readonly path: string) {
    this.watched = new WatchedPhpConfig(path);
  }

  get location(): string {
    return this.path;
  }

  async read(): Promise<MediaServerValues | null> {
    const v = await this.watched.read();
    if (!v) return null;
    const url = v.url ?? v.livekit_url ?? v.server_url ?? '';
    const api_key = v.api_key ?? v.livekit_api_key ?? '';
    const api_secret = v.api_secret ?? v.livekit_api_secret ?? '';
    return url && api_key && api_secret ? { url, api_key, api_secret } : null;
  }

  async write(values: MediaServerValues): Promise<void> {
    await writeFileAtomically(
      this.path,
      phpConfigSource(
        { url: values.url, api_key: values.api_key, api_secret: values.api_secret },
        'Live media server (LiveKit-compatible)',
      ),
    );
  }
}

/** `config/turn.local.php`: `urls` (comma-separated), `secret`, `ttl` (seconds), `realm`. */
export class PhpTurnSettingsFile implements TurnSettingsStore {
  private readonly watched: WatchedPhpConfig;
  constructor(readonly path: string) {
    this.watched = new WatchedPhpConfig(path);
  }

  get location(): string {
    return this.path;
  }

  async read(): Promise<TurnValues | null> {
    const v = await this.watched.read();
    if (!v) return null;
    const urls = (v.urls ?? v.turn_urls ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
    const secret = v.secret ?? v.static_auth_secret ?? v.auth_secret ?? '';
    const ttl = Number(v.ttl ?? '86400');
    if (!urls.length || !secret) return null;
    return { urls, secret, ttl: Number.isInteger(ttl) && ttl > 0 ? ttl : 86_400, realm: v.realm || null };
  }

  async write(values: TurnValues): Promise<void> {
    const entries: Record<string, string> = { urls: values.urls.join(','), secret: values.secret, ttl: String(values.ttl) };
    if (values.realm) entries.realm = values.realm;
    await writeFileAtomically(this.path, phpConfigSource(entries, 'TURN relay (shared-secret mode)'));
  }
}
