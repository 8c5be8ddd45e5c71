import { Invalid } from '@plaza/domain';
import type { Context, Next } from 'koa';
import type { Selector } from './operation.js';

/**
 * Selector paths (docs/decisions/0170): the query keys that choose an operation inside its script,
 * written as path segments after the script, so that every operation has a URL of its own without a
 * query string, which is what OpenAPI path keys and client generators need.
 *
 *   /api/v1/friends.php/action/send                   = /api/v1/friends.php?action=send
 *   /api/v1/messages.php/user_id/7                    = /api/v1/messages.php?user_id=7
 *   /api/v1/message_groups.php/path/5/members/9       = /api/v1/message_groups.php?path=5/members/9
 *
 * After `<script>.php/` come `key/value` pairs; the key `path` takes every segment after it as its value,
 * so it comes last. The request is then served exactly as its query form: the pairs join the query
 * string before anything else looks at the request (rate limits, body reading, the dispatcher). A key
 * both in the path and in the query string is a 400; a path that is not a sequence of pairs is left
 * alone (and answered 404, like any unknown URL).
 */

/** The selector path of a declaration: `:name` captures and `has` keys as `{name}` templates. */
export function selectorPathOf(sel: Selector): string {
  const parts: string[] = [];
  if (sel.action) parts.push('action', encodeURIComponent(sel.action));
  for (const key of sel.has ?? []) {
    if (key === 'action' || key === 'path') continue;
    parts.push(encodeURIComponent(key), `{${key}}`);
  }
  const segs = (sel.path ?? '').split('/').filter(Boolean);
  if (segs.length) parts.push('path', ...segs.map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : encodeURIComponent(s))));
  return parts.length ? `/${parts.join('/')}` : '';
}

/** The query pairs a selector path names, or null when `rest` (the part after `.php/`) is not one. */
export function selectorPairs(rest: string): [string, string][] | null {
  let segs: string[];
  try {
    segs = rest.split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
  const pairs: [string, string][] = [];
  for (let i = 0; i < segs.length; i += 2) {
    const key = segs[i];
    if (key === 'path') {
      const value = segs.slice(i + 1);
      if (value.length === 0 || value.some((s) => s === '')) return null;
      pairs.push(['path', value.join('/')]);
      return pairs;
    }
    const value = segs[i + 1];
    if (!key || value === undefined || value === '' || pairs.some(([k]) => k === key)) return null;
    pairs.push([key, value]);
  }
  return pairs.length ? pairs : null;
}

/** Koa middleware rewriting a selector path of a known script into its query form. */
export function selectorPaths(scriptNames: () => Iterable<string>, prefixes: string[]) {
  return async (ctx: Context, next: Next) => {
    const m = /^(.*)\/([\w-]+)\.php\/(.+)$/.exec(ctx.path);
    if (m && prefixes.includes(m[1]) && [...scriptNames()].includes(m[2])) {
      const pairs = selectorPairs(m[3]);
      if (pairs) {
        const search = new URLSearchParams(ctx.querystring);
        for (const [key, value] of pairs) {
          if (search.has(key)) {
            throw new Invalid(`${key} is given both in the path and in the query string: give it once`, 'invalid_input', [
              { field: key, problem: 'given both in the path and in the query string' },
            ]);
          }
          search.append(key, value);
        }
        ctx.path = `${m[1]}/${m[2]}.php`;
        ctx.querystring = search.toString();
      }
    }
    await next();
  };
}
