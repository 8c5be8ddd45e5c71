import { VIDEO_EXTENSIONS } from '../media/reference.js';
import type { MediaReferences, Uploader } from '../media/references.js';
import { Invalid } from '../shared/errors.js';
import { extractHashtags, normalizeTags } from './model.js';

/** At most this many files in one post, on every surface. */
export const MAX_POST_MEDIA = 10;

/** What a client sends to publish a post, on any surface (a wall, a group, a page). */
export interface PostDraft {
  content?: string | null;
  /** One file name (group_posts.php and pages.php send one) or several (posts.php). */
  media?: string | readonly string[] | null;
  media_type?: string | null;
  /** An array of tags, or one string of them separated by spaces or commas. */
  tags?: readonly string[] | string | null;
}

/** The post as stored, whatever its surface; a surface keeps the parts its table has (a page: the first file, no tags). */
export interface ComposedPost {
  content: string;
  media: string[];
  media_type: 'image' | 'video' | null;
  tags: string[];
}

/** A surface's limits and the wording of its refusal of an empty post (the texts each app screen has always seen). */
export interface CompositionRules {
  maxLength: number;
  /** The 400 for a post with neither content nor media (code `empty_post` on every surface). */
  emptyPost: () => Invalid;
}

/** The wall's and groups' refusal of an empty post. */
export const emptyPostOnField = (): Invalid => Invalid.field('content', 'a post needs content or media', 'empty_post');

/**
 * The one composition rule of a post, whatever its surface (issue 28): the content is trimmed; media
 * are uploads of type posts that `uploader` may use (MediaReferences, docs/decisions/0043, 0114); a
 * post needs content or media; the content keeps the surface's length; at most ten files; the media
 * type is the one given (blank means none) or inferred from the first file's extension; tags are the
 * given ones plus the content's hashtags, normalised. Checks that read nothing come first, so a refusal
 * of an empty or too long post never marks an upload as referenced.
 */
export async function composePost(
  media: MediaReferences,
  uploader: Uploader,
  draft: PostDraft,
  rules: CompositionRules,
): Promise<ComposedPost> {
  const content = (draft.content ?? '').trim();
  const given = draft.media === undefined || draft.media === null ? [] : typeof draft.media === 'string' ? [draft.media] : draft.media;
  const names = given.map((m) => m.trim()).filter((m) => m !== '');
  if (!content && names.length === 0) throw rules.emptyPost();
  if (content.length > rules.maxLength) throw Invalid.field('content', `must be at most ${rules.maxLength} characters`);
  if (names.length > MAX_POST_MEDIA) throw Invalid.field('media', `at most ${MAX_POST_MEDIA} files`);
  const files = (await media.requireAll(uploader, 'media', names, ['posts'])).map((m) => m.name);
  const mediaType = files.length ? draft.media_type?.trim() || inferredMediaType(files[0]!) : null;
  if (mediaType !== null && mediaType !== 'image' && mediaType !== 'video') throw Invalid.field('media_type', 'must be image or video');
  return { content, media: files, media_type: mediaType, tags: tagsOf(draft.tags, content) };
}

/** A post's tags, published or edited: the given ones (an array, or one string separated by spaces or commas) plus the content's hashtags. */
export function tagsOf(given: PostDraft['tags'], content: string): string[] {
  const tagsGiven = typeof given === 'string' ? given.split(/[\s,]+/) : (given ?? []);
  return normalizeTags([...tagsGiven, ...extractHashtags(content)]);
}

/** An edit's new text: the same trim, emptiness (a post keeping media may lose its text) and length as publishing. */
export function composeEdit(contentRaw: string, keepsMedia: boolean, rules: CompositionRules): string {
  const content = contentRaw.trim();
  if (!content && !keepsMedia) throw rules.emptyPost();
  if (content.length > rules.maxLength) throw Invalid.field('content', `must be at most ${rules.maxLength} characters`);
  return content;
}

/** A comment's text, on every surface: trimmed, not empty, within the surface's length. */
export function composeComment(contentRaw: string, maxLength: number): string {
  const content = contentRaw.trim();
  if (!content) throw Invalid.field('content', 'must not be empty');
  if (content.length > maxLength) throw Invalid.field('content', `must be at most ${maxLength} characters`);
  return content;
}

function inferredMediaType(file: string): 'image' | 'video' {
  const ext = file.split('.').pop()?.toLowerCase() ?? '';
  return (VIDEO_EXTENSIONS as readonly string[]).includes(ext) ? 'video' : 'image';
}
