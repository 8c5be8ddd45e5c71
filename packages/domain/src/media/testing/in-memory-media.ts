import { Unavailable } from '../../shared/errors.js';
import type {
  MediaInspector,
  MediaStore,
  SniffedType,
  Translation,
  TranslationCache,
  Translator,
  UploadedMedia,
  UploadTarget,
} from '../ports.js';
import type { MediaReference } from '../reference.js';

/** The uploads directory as a set of relative paths (`uploads/posts/media_x.jpg`). */
export class InMemoryUploadedMedia implements UploadedMedia {
  readonly paths = new Set<string>();

  /** Places a file, as upload.php would have. */
  async place(path: string): Promise<void> {
    this.paths.add(path);
  }

  async exists(reference: MediaReference): Promise<boolean> {
    return this.paths.has(reference.path);
  }
}

/** Types by file path, as a test declares them. */
export class FakeMediaInspector implements MediaInspector {
  readonly types = new Map<string, SniffedType>();

  async sniff(file: string): Promise<SniffedType | null> {
    return this.types.get(file) ?? null;
  }
}

/** Stores into an `InMemoryUploadedMedia`, names numbered in order. */
export class InMemoryMediaStore implements MediaStore {
  private seq = 0;
  readonly stored: { file: string; target: UploadTarget; name: string }[] = [];

  constructor(private readonly uploaded: InMemoryUploadedMedia = new InMemoryUploadedMedia()) {}

  async store(file: string, target: UploadTarget): Promise<{ name: string; size: number }> {
    const name = `${target.prefix}${(++this.seq).toString(16).padStart(8, '0')}.${target.ext}`;
    this.stored.push({ file, target, name });
    await this.uploaded.place(target.folder + name);
    return { name, size: 1 };
  }
}

/** A translator that tags the text with the target (`[fr] hello`), counting its calls; `down` makes it fail. */
export class FakeTranslator implements Translator {
  calls = 0;
  down = false;

  async translate(request: { text: string; target: string }): Promise<Translation> {
    this.calls += 1;
    if (this.down) throw new Unavailable('The translation service is unavailable', 'translation_unavailable');
    return { text: `[${request.target}] ${request.text}`, detectedLanguage: 'en' };
  }
}

/** An unbounded map: the contract suite pins down what every cache must do. */
export class InMemoryTranslationCache implements TranslationCache {
  private readonly entries = new Map<string, Translation>();

  async get(target: string, text: string): Promise<Translation | null> {
    return this.entries.get(`${target}\u0000${text}`) ?? null;
  }

  async set(target: string, text: string, translation: Translation): Promise<void> {
    this.entries.set(`${target}\u0000${text}`, translation);
  }
}
