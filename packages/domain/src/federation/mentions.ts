/**
 * Mentions of remote accounts in a post's text (`@name@domain`, issue 29): resolved by WebFinger
 * when the post federates, linked in its Note and delivered to the mentioned actor. At most
 * `MAX_REMOTE_MENTIONS` per post are looked at, so that a post cannot make the server resolve a
 * list of handles; the others stay plain text.
 */
export const MAX_REMOTE_MENTIONS = 10;

/**
 * `@name@host[:port]` not preceded by a word character, `@`, `/` or `.` (not part of an e-mail
 * address or a URL); a trailing dot (end of a sentence) is not part of the host.
 */
const REMOTE_MENTION =
  /(?<![\w@/.])@([a-z0-9_][a-z0-9_.-]{0,63})@([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?)/gi;

/** The remote handles a text mentions, as `@name@host` lowercased, unique, in order, at most `MAX_REMOTE_MENTIONS`. */
export function remoteMentionsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(REMOTE_MENTION)) {
    const handle = `@${m[1]}@${m[2]}`.toLowerCase();
    if (!out.includes(handle)) out.push(handle);
    if (out.length >= MAX_REMOTE_MENTIONS) break;
  }
  return out;
}
