/**
 * Remote content, made safe to store and show (issue 29, "Bad input"): an allowlist like Mastodon's.
 * Kept: `p`, `br`, `a` with an http(s) `href` (written out with `rel="nofollow noopener noreferrer"`
 * and `target="_blank"`), `span` with the classes remote servers put on mentions and hashtags. Every
 * other tag is dropped with its attributes but its text kept, except `script`, `style`, `template`,
 * `iframe`, `object`, `textarea`, `title` and `noscript`, whose content goes too. The output is
 * rebuilt from tokens, never copied: text is re-escaped, so nothing the input smuggles in an
 * attribute or a broken tag survives as markup.
 */

const DROP_WITH_CONTENT = new Set(['script', 'style', 'template', 'iframe', 'object', 'textarea', 'title', 'noscript', 'svg', 'math']);
const SPAN_CLASSES = new Set(['mention', 'hashtag', 'h-card', 'u-url', 'invisible', 'ellipsis', 'quote-inline']);
const A_CLASSES = new Set(['mention', 'hashtag', 'u-url', 'status-link', 'unhandled-link']);
/** Block-level tags whose end starts a new line in the text form. */
const BLOCKS = new Set(['p', 'div', 'li', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol']);

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };

/** Decodes character references (named ones of HTML's basic set, numeric ones); anything else is left as written. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

type Token = { kind: 'text'; text: string } | { kind: 'open' | 'close'; name: string; attrs: Map<string, string> };

const ATTR = /([^\s"'<>/=\x00-\x1f]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** HTML as a flat list of text, start and end tags (comments, doctypes and processing instructions dropped). */
function tokenize(html: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out.push({ kind: 'text', text: decodeEntities(html.slice(i)) });
      break;
    }
    if (lt > i) out.push({ kind: 'text', text: decodeEntities(html.slice(i, lt)) });
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/.exec(html.slice(lt));
    if (!tag) {
      if (/^<[!?/]/.test(html.slice(lt, lt + 2))) {
        // A declaration, a processing instruction or a malformed end tag: dropped up to its '>'.
        const end = html.indexOf('>', lt);
        i = end < 0 ? html.length : end + 1;
      } else {
        // A '<' that starts no tag is text.
        out.push({ kind: 'text', text: '<' });
        i = lt + 1;
      }
      continue;
    }
    const attrs = new Map<string, string>();
    if (!tag[1]) {
      for (const m of tag[3].matchAll(ATTR)) {
        const name = m[1].toLowerCase();
        if (!attrs.has(name)) attrs.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
      }
    }
    out.push({ kind: tag[1] ? 'close' : 'open', name: tag[2].toLowerCase(), attrs });
    i = lt + tag[0].length;
  }
  return out;
}

/** An absolute http(s) URL as written, or null (javascript:, data:, relative and broken ones). */
function safeHref(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function allowedClasses(value: string | undefined, allowed: Set<string>): string {
  return (value ?? '')
    .split(/\s+/)
    .filter((c) => allowed.has(c))
    .join(' ');
}

/** Whether a token opens an element that, with its content, goes (a `script` and the like). */
function dropsContent(t: Token): t is Token & { kind: 'open'; name: string } {
  return t.kind === 'open' && DROP_WITH_CONTENT.has(t.name);
}

/** The tokens of `html` outside the elements whose content goes whole (scripts, styles…). */
function* keptTokens(html: string): Generator<Token> {
  let skipping: string | null = null;
  for (const t of tokenize(html)) {
    if (skipping) {
      if (t.kind === 'close' && t.name === skipping) skipping = null;
      continue;
    }
    if (dropsContent(t)) {
      skipping = t.name;
      continue;
    }
    yield t;
  }
}

/** The allowlisted HTML of a remote note or comment. */
export function sanitizeRemoteHtml(html: string): string {
  const out: string[] = [];
  const open: string[] = [];
  for (const t of keptTokens(html)) {
    if (t.kind === 'text') {
      out.push(escapeText(t.text));
      continue;
    }
    if (t.name === 'br') {
      if (t.kind === 'open') out.push('<br>');
      continue;
    }
    if (t.name !== 'p' && t.name !== 'a' && t.name !== 'span') continue;
    if (t.kind === 'close') {
      // Closes the innermost open element of that name, and any left open inside it.
      const at = open.lastIndexOf(t.name);
      if (at < 0) continue;
      while (open.length > at) out.push(`</${open.pop()}>`);
      continue;
    }
    if (t.name === 'p') {
      out.push('<p>');
    } else if (t.name === 'a') {
      const href = safeHref(t.attrs.get('href'));
      // A link to nowhere safe keeps its text but not its element: its end tag then closes nothing.
      if (!href) continue;
      const cls = allowedClasses(t.attrs.get('class'), A_CLASSES);
      out.push(`<a href="${escapeAttr(href)}"${cls ? ` class="${cls}"` : ''} rel="nofollow noopener noreferrer" target="_blank">`);
    } else {
      const cls = allowedClasses(t.attrs.get('class'), SPAN_CLASSES);
      out.push(cls ? `<span class="${cls}">` : '<span>');
    }
    open.push(t.name);
  }
  while (open.length > 0) out.push(`</${open.pop()}>`);
  return out.join('');
}

/**
 * The plain text of remote HTML, for places that show text (a comment): paragraphs and line breaks
 * become newlines, Mastodon's `invisible` spans (the scheme of a link) are left out, tags go.
 */
export function remoteHtmlToText(html: string): string {
  const out: string[] = [];
  let hidden = 0;
  const spans: boolean[] = [];
  for (const t of keptTokens(html)) {
    if (t.kind === 'text') {
      if (hidden === 0) out.push(t.text);
    } else if (t.name === 'br' && t.kind === 'open') {
      out.push('\n');
    } else if (t.name === 'span') {
      if (t.kind === 'open') {
        const invisible = (t.attrs.get('class') ?? '').split(/\s+/).includes('invisible');
        spans.push(invisible);
        if (invisible) hidden += 1;
      } else if (spans.pop()) {
        hidden -= 1;
      }
    } else if (BLOCKS.has(t.name) && t.kind === 'close') {
      out.push('\n\n');
    }
  }
  return out
    .join('')
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
