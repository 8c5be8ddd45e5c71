import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { LiveKitMediaServer, mediaServerCredentials } from './livekit-media-server.js';
import { parsePhpConfigArray } from './php-config-file.js';

const creds = { url: 'wss://media.example.test', apiKey: 'APIkey123', apiSecret: 'a-very-long-secret-of-32-bytes!!' };
const secret = new TextEncoder().encode(creds.apiSecret);
const server = new LiveKitMediaServer(
  async () => creds,
  () => new Date('2026-03-01T10:00:00Z'),
);

async function signedEvent(body: string, options: { secret?: string; issuer?: string; sha?: string } = {}) {
  const sha = options.sha ?? createHash('sha256').update(body).digest('base64');
  return new SignJWT({ sha256: sha })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(options.issuer ?? creds.apiKey)
    .setIssuedAt(Math.floor(Date.parse('2026-03-01T10:00:00Z') / 1000))
    .setExpirationTime(Math.floor(Date.parse('2026-03-01T10:05:00Z') / 1000))
    .sign(new TextEncoder().encode(options.secret ?? creds.apiSecret));
}

describe('LiveKitMediaServer', () => {
  it('signs a LiveKit access token: issuer, subject, name, times and the video grant', async () => {
    const token = await server.issueToken({
      identity: 'u7-ada',
      name: 'Ada',
      room: 'live-3',
      canPublish: true,
      canPublishData: true,
      canSubscribe: true,
      ttlSeconds: 21600,
    });
    const { payload, protectedHeader } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      currentDate: new Date('2026-03-01T10:00:00Z'),
    });
    expect(protectedHeader.alg).toBe('HS256');
    const now = Date.parse('2026-03-01T10:00:00Z') / 1000;
    expect(payload).toMatchObject({ iss: creds.apiKey, sub: 'u7-ada', name: 'Ada', nbf: now, iat: now, exp: now + 21600 });
    expect(payload.video).toEqual({ room: 'live-3', roomJoin: true, canPublish: true, canPublishData: true, canSubscribe: true });
  });

  it('accepts a signed event whose sha256 claim matches the body', async () => {
    const body = JSON.stringify({ event: 'participant_joined', room: { name: 'live-3' }, participant: { identity: 'u9-bob' } });
    expect(await server.verifyEvent(body, await signedEvent(body))).toEqual({
      event: 'participant_joined',
      room: 'live-3',
      identity: 'u9-bob',
    });
    expect((await server.verifyEvent(body, `Bearer ${await signedEvent(body)}`)).event).toBe('participant_joined');
  });

  it('refuses unsigned, wrongly signed, wrong-issuer and tampered events', async () => {
    const body = JSON.stringify({ event: 'room_finished', room: { name: 'live-3' } });
    await expect(server.verifyEvent(body, undefined)).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(server.verifyEvent(body, await signedEvent(body, { secret: 'another secret of enough length!!' }))).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
    await expect(server.verifyEvent(body, await signedEvent(body, { issuer: 'someone' }))).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
    await expect(server.verifyEvent(body.replace('live-3', 'live-4'), await signedEvent(body))).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
    await expect(server.verifyEvent(body, 'not a jwt')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});

describe('media-server credentials', () => {
  it('prefers the environment, else reads the PHP file again when it changes', async () => {
    expect(await mediaServerCredentials(creds, null)()).toEqual(creds);
    const dir = mkdtempSync(join(tmpdir(), 'plaza-media-'));
    const file = join(dir, 'media_server.local.php');
    const source = mediaServerCredentials({ url: 'wss://env.test' }, file);
    expect(await source()).toBeNull();
    writeFileSync(file, `<?php\nreturn [\n  'url' => 'wss://file.test',\n  'api_key' => 'K1',\n  'api_secret' => 'S1',\n];\n`);
    expect(await source()).toEqual({ url: 'wss://file.test', apiKey: 'K1', apiSecret: 'S1' });
    writeFileSync(file, `<?php return ["livekit_url" => "wss://file2.test", "livekit_api_key" => "K2", "livekit_api_secret" => "S\\"2"];`);
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(await source()).toEqual({ url: 'wss://file2.test', apiKey: 'K2', apiSecret: 'S"2' });
  });

  it('reads only quoted string entries of a PHP array', () => {
    expect(
      parsePhpConfigArray(
        `<?php return ['a' => 'it\\'s', 'n' => 5, "b" => "x", // 'c' => 'y'\n /* 'd' => 'z' */ # 'e' => 'w'\n 'f' => 'a // b'];`,
      ),
    ).toEqual({ a: "it's", b: 'x', f: 'a // b' });
  });
});
