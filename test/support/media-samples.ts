import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packagedFfmpeg } from '@plaza/adapters-integrations/media';

const run = promisify(execFile);

/** The ffmpeg the server remuxes with (`@ffmpeg-installer/ffmpeg`), which also makes the test files. */
export function testFfmpeg(): string {
  const binary = packagedFfmpeg();
  if (!binary) throw new Error('no ffmpeg binary from @ffmpeg-installer/ffmpeg on this platform');
  return binary;
}

/** Where a phone puts its location and device: what a remuxed file must have lost. */
export const PRIVATE_TAGS = {
  // ISO 6709, as phones write it: the ©xyz atom of MP4/MOV.
  location: '+48.8584+002.2945/',
  'com.apple.quicktime.location.ISO6709': '+48.8584+002.2945+035.000/',
  'com.apple.quicktime.make': 'SecretPhoneMaker',
  'com.apple.quicktime.model': 'SecretPhoneModel',
  make: 'SecretPhoneMaker',
  model: 'SecretPhoneModel',
  title: 'SecretTitleOfTheRecording',
  artist: 'SecretArtistName',
  comment: 'SecretComment',
  creation_time: '2024-05-01T10:20:30Z',
};

/** Bytes of the tags above that must appear in no stored file. */
export const PRIVATE_NEEDLES = ['48.8584', '002.2945', 'SecretPhone', 'SecretTitle', 'SecretArtist', 'SecretComment'];

const VIDEO = ['-f', 'lavfi', '-i', 'testsrc=duration=1:size=64x48:rate=10'];
const AUDIO = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1:sample_rate=8000'];

/** H.264 video and AAC audio with metadata tags kept, as a phone records an mp4 or a mov. */
const H264_AAC = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', 'use_metadata_tags'];

/** How each kind is made: small, one second long, encoded the way phones and browsers record. */
const RECIPES: Record<string, string[]> = {
  mp4: [...VIDEO, ...AUDIO, ...H264_AAC, '-f', 'mp4'],
  mov: [...VIDEO, ...AUDIO, ...H264_AAC, '-f', 'mov'],
  webm: [...VIDEO, ...AUDIO, '-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libopus', '-f', 'webm'],
  m4a: [...AUDIO, '-c:a', 'aac', '-f', 'ipod'],
  mp3: [...AUDIO, '-c:a', 'libmp3lame', '-f', 'mp3'],
  wav: [...AUDIO, '-c:a', 'pcm_s16le', '-f', 'wav'],
};

const made = new Map<string, Promise<Buffer>>();

/**
 * A real, playable video or audio file of `ext` (mp4, mov, webm, m4a, mp3, wav), made by ffmpeg.
 * `tagged`: carrying PRIVATE_TAGS (location, device, title, artist…); `rotate`: a portrait video's
 * rotation (degrees) in its track header. Made once per process and kind.
 */
export function mediaSample(ext: string, options: { tagged?: boolean; rotate?: number } = {}): Promise<Buffer> {
  const key = `${ext}:${options.tagged ? 't' : ''}:${options.rotate ?? ''}`;
  let sample = made.get(key);
  if (!sample) {
    sample = make(ext, options);
    made.set(key, sample);
  }
  return sample;
}

async function make(ext: string, options: { tagged?: boolean; rotate?: number }): Promise<Buffer> {
  const recipe = RECIPES[ext];
  if (!recipe) throw new Error(`no media sample for .${ext}`);
  const dir = await mkdtemp(join(tmpdir(), 'plaza-media-sample-'));
  try {
    const out = join(dir, `sample.${ext}`);
    const tags = options.tagged ? Object.entries(PRIVATE_TAGS).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]) : [];
    const rotate = options.rotate !== undefined ? ['-metadata:s:v:0', `rotate=${options.rotate}`] : [];
    const [format, muxer] = recipe.slice(-2);
    const encode = recipe.slice(0, -2);
    if (rotate.length === 0) {
      await ffmpeg([...encode, ...tags, format, muxer, out]);
    } else {
      // The rotation is written on a copy: the encoder would take it as an order to turn the pictures.
      const plain = join(dir, `plain.${ext}`);
      await ffmpeg([...encode, format, muxer, plain]);
      await ffmpeg(['-i', plain, '-c', 'copy', ...tags, ...rotate, format, muxer, out]);
    }
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs the test ffmpeg quietly; its error output on failure. */
export async function ffmpeg(args: string[]): Promise<string> {
  const { stderr } = await run(testFfmpeg(), ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args], {
    maxBuffer: 4 * 1024 * 1024,
  });
  return stderr;
}

/**
 * What ffmpeg reads in a file, as `ffprobe` would show it: the container's format, its global and
 * stream tags, each stream's codec, a video's rotation, and whether every packet decodes.
 */
export async function probe(
  bytes: Buffer,
  ext: string,
): Promise<{ info: string; decodes: boolean; streams: string[]; rotation: string | null }> {
  const dir = await mkdtemp(join(tmpdir(), 'plaza-media-probe-'));
  try {
    const file = join(dir, `probe.${ext}`);
    await writeFile(file, bytes);
    // `ffmpeg -i` alone prints what it found and exits 1 for want of an output.
    const info = await run(testFfmpeg(), ['-hide_banner', '-i', file]).then(
      (r) => r.stderr,
      (e: { stderr: string }) => e.stderr,
    );
    const decodes = await run(testFfmpeg(), ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']).then(
      () => true,
      () => false,
    );
    const streams = [...info.matchAll(/Stream #0:\d+[^:]*: (Video|Audio|Data|Subtitle): (\w+)/g)].map(
      (m) => `${m[1].toLowerCase()}:${m[2]}`,
    );
    const rotation = /displaymatrix: rotation of (-?[\d.]+) degrees/.exec(info)?.[1] ?? null;
    return { info, decodes, streams, rotation };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
