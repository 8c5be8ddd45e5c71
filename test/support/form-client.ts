/**
 * A browser without a browser, for the admin panel's HTTP-level tests: a cookie jar, forms posted
 * as application/x-www-form-urlencoded, redirects returned rather than followed, and the CSRF token
 * read from the last page.
 */
export interface PageResponse {
  status: number;
  html: string;
  location: string | null;
  headers: Headers;
}

export class FormClient {
  readonly cookies = new Map<string, string>();
  /** The `_csrf` of the last page that had a form. */
  csrf = '';

  constructor(readonly baseUrl: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.send('GET', path, undefined, headers);
  }

  /** Posts the fields, with the page's CSRF token unless `_csrf` is given (or set to null to leave it out). */
  async post(path: string, fields: Record<string, string | null>, headers: Record<string, string> = {}): Promise<PageResponse> {
    const form = new URLSearchParams();
    const withToken = { _csrf: this.csrf, ...fields };
    for (const [k, v] of Object.entries(withToken)) if (v !== null) form.set(k, v);
    return this.send('POST', path, form.toString(), { 'Content-Type': 'application/x-www-form-urlencoded', ...headers });
  }

  /** Signs in through the form; throws with the page's text when it does not end on a redirect. */
  async signIn(login: string, password: string, totp?: string): Promise<PageResponse> {
    await this.get('/admin/login.php');
    const res = await this.post('/admin/login.php', { login, password, ...(totp ? { totp } : {}) });
    if (res.status !== 303) throw new Error(`sign-in of ${login} answered ${res.status}: ${text(res.html).slice(0, 300)}`);
    return res;
  }

  /** The raw Set-Cookie headers of a response, for the cookie-flag checks. */
  static setCookies(res: PageResponse): string[] {
    return res.headers.getSetCookie();
  }

  private async send(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<PageResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      body,
      redirect: 'manual',
      headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const html = await res.text();
    const token = /name="_csrf" value="([^"]*)"/.exec(html)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, html, location: res.headers.get('location'), headers: res.headers };
  }
}

/** The page's text without tags, whitespace collapsed: what a reader sees. */
export function text(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
