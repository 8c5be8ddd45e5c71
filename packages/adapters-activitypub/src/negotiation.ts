/**
 * Content negotiation of federation's URLs (docs/decisions/0201): which answer an `Accept` header
 * asks for, and the minimal HTML page a browser gets where no main application is configured.
 */

interface MediaRange {
  type: string;
  params: string;
  q: number;
}

function ranges(accept: string | null | undefined): MediaRange[] {
  if (!accept) return [];
  return accept.split(',').flatMap((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim());
    if (!type) return [];
    const qParam = params.find((p) => /^q=/i.test(p));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return [{ type: type.toLowerCase(), params: params.join(';').toLowerCase(), q: Number.isFinite(q) ? q : 0 }];
  });
}

/**
 * Whether the client asks for ActivityStreams: `application/activity+json`, or `application/ld+json`
 * (with the ActivityStreams profile, or none, as Mastodon reads it), with a quality above zero.
 */
export function wantsActivity(accept: string | null | undefined): boolean {
  return ranges(accept).some(
    (r) =>
      r.q > 0 &&
      (r.type === 'application/activity+json' ||
        (r.type === 'application/ld+json' &&
          (!r.params.includes('profile=') || r.params.includes('https://www.w3.org/ns/activitystreams')))),
  );
}

/** Whether a browser is asking (an HTML type, and no ActivityStreams). */
export function wantsHtml(accept: string | null | undefined): boolean {
  return !wantsActivity(accept) && ranges(accept).some((r) => r.q > 0 && (r.type === 'text/html' || r.type === 'application/xhtml+xml'));
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // Nothing on the page runs or loads: escaped text and links only.
  'Content-Security-Policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  Vary: 'Accept',
};

/** A minimal page: a title, paragraphs of escaped text and an optional link. Every value is escaped here. */
export function htmlPage(status: number, title: string, paragraphs: string[], link?: { href: string; text: string }): Response {
  const body = [
    `<h1>${escapeHtml(title)}</h1>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link.href)}" rel="nofollow">${escapeHtml(link.text)}</a></p>`] : []),
  ].join('');
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`;
  return new Response(html, { status, headers: PAGE_HEADERS });
}

/** A redirect to the main application's page for the object. */
export function redirectTo(location: string): Response {
  return new Response(null, { status: 302, headers: { Location: location, Vary: 'Accept' } });
}
