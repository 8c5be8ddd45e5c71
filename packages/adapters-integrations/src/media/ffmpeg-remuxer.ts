import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { UnsupportedMediaType, Unavailable } from '@plaza/domain';

/** The ffmpeg binary that `@ffmpeg-installer/ffmpeg` ships for this platform; null when it has none. */
export function packagedFfmpeg(): string | null {
  try {
    // The package throws (a string) at load on a platform it has no binary for: never at import time.
    const found = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
    return executable(found.path) ? found.path : null;
  } catch {
    return null;
  }
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * How each stored type is read and written. The demuxer is forced (never probed): an upload that is
 * really a playlist or a concat script (`#EXTM3U`, `ffconcat`) is then no input ffmpeg would follow.
 * Audio keeps only its audio streams (an MP3's or M4A's cover picture is an image with metadata of its
 * own); video keeps its video streams that are not cover pictures (`V`) and its audio. Timed metadata
 * tracks (a phone's `mebx` location track), data, subtitles and attachments are left behind.
 */
const FORMATS: Readonly<Record<string, { demuxer: string; muxer: string; map: string[]; extra: string[] }>> = {
  mp4: { demuxer: 'mov', muxer: 'mp4', map: ['0:V?', '0:a?'], extra: ['-movflags', '+faststart'] },
  mov: { demuxer: 'mov', muxer: 'mov', map: ['0:V?', '0:a?'], extra: ['-movflags', '+faststart'] },
  webm: { demuxer: 'matroska', muxer: 'webm', map: ['0:V?', '0:a?'], extra: [] },
  m4a: { demuxer: 'mov', muxer: 'ipod', map: ['0:a'], extra: ['-movflags', '+faststart'] },
  // No ID3 tag at all: ffmpeg would otherwise still write one (with its own name in it).
  mp3: { demuxer: 'mp3', muxer: 'mp3', map: ['0:a'], extra: ['-id3v2_version', '0', '-write_id3v1', '0'] },
  wav: { demuxer: 'wav', muxer: 'wav', map: ['0:a'], extra: [] },
};

/** The extensions a remuxer writes. */
export const REMUXED_EXTENSIONS = Object.keys(FORMATS);

export interface RemuxOptions {
  /** The ffmpeg binary; null: none on this platform (or API_FFMPEG_PATH names none), and every remux answers 503. */
  binary: string | null;
  /** A run still going after this long is killed and its file refused. */
  timeoutMs: number;
  /** Runs at once in this process; the others wait their turn. */
  concurrency: number;
  log?: (details: Record<string, unknown>, message: string) => void;
}

/** Last bytes of ffmpeg's error output kept for the log (its first lines name the input). */
const STDERR_TAIL = 2000;

/**
 * Rewrites a video or audio file into the same container without re-encoding (`-c copy`) and without
 * its metadata: global tags (`©xyz` location, `make`/`model`, `com.apple.quicktime.*`, title, artist,
 * creation time), stream and chapter tags (`-map_metadata -1`, `-map_chapters -1`), and ffmpeg's own
 * name (`bitexact`). What playing needs stays: the streams, and a video's rotation (stream side data).
 * ffmpeg runs as a child process with a time limit, a few at a time.
 */
export class FfmpegRemuxer {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: RemuxOptions) {}

  /** Whether `binary` is a file this process may execute (API_FFMPEG_PATH or the packaged one). */
  static usable(binary: string): boolean {
    return executable(binary);
  }

  get available(): boolean {
    return this.options.binary !== null;
  }

  /** Writes `input` (of the stored type `ext`) to `output`; UnsupportedMediaType when it cannot be remuxed. */
  async remux(input: string, output: string, ext: string): Promise<void> {
    const format = FORMATS[ext];
    if (!format) throw new UnsupportedMediaType(`Files of type ${ext} are not stored`, 'unsupported_file_type');
    const binary = this.options.binary;
    if (!binary) {
      this.options.log?.({ ext }, 'video/audio upload refused: no ffmpeg binary (see API_FFMPEG_PATH)');
      throw new Unavailable(
        'Videos and audio cannot be processed on this server now; images can still be uploaded',
        'media_processing_unavailable',
      );
    }
    await this.turn();
    try {
      await this.run(
        binary,
        [
          '-nostdin',
          '-hide_banner',
          '-loglevel',
          'error',
          '-y',
          '-protocol_whitelist',
          'file',
          '-f',
          format.demuxer,
          '-i',
          `file:${input}`,
          ...format.map.flatMap((m) => ['-map', m]),
          '-map_metadata',
          '-1',
          '-map_chapters',
          '-1',
          '-c',
          'copy',
          '-fflags',
          '+bitexact',
          '-flags:v',
          '+bitexact',
          '-flags:a',
          '+bitexact',
          ...format.extra,
          '-f',
          format.muxer,
          `file:${output}`,
        ],
        ext,
      );
    } finally {
      this.release();
    }
  }

  private run(binary: string, args: string[], ext: string): Promise<void> {
    const { timeoutMs } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      let timedOut = false;
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-STDERR_TAIL)));
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        this.options.log?.({ ext, err: error }, 'ffmpeg could not be started');
        reject(
          new Unavailable(
            'Videos and audio cannot be processed on this server now; images can still be uploaded',
            'media_processing_unavailable',
          ),
        );
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0 && !timedOut) return resolve();
        const why = timedOut ? `not remuxed within ${Math.round(timeoutMs / 1000)} s` : `ffmpeg exited with ${code ?? 'a signal'}`;
        this.options.log?.(
          { ext, reason: why, ffmpeg: stderr.trim().split('\n').slice(-3).join(' | ') },
          'video/audio upload refused: cannot be remuxed',
        );
        reject(
          new UnsupportedMediaType(
            timedOut
              ? `The ${ext} file could not be processed within ${Math.round(timeoutMs / 1000)} s`
              : `The ${ext} file could not be read as ${ext}: it is damaged or not what its content claims`,
            'invalid_media',
          ),
        );
      });
    });
  }

  private async turn(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running += 1;
      return;
    }
    // The slot passes directly from the releasing run to the first waiter.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
