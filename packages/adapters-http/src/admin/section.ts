import type { Context } from 'koa';
import type { Actor } from '@plaza/domain';
import type { AdminSessionActor } from '@plaza/domain/admin';

/**
 * A part of the admin panel that lives in a file of its own (users, reports, federation, sign-ups…):
 * it declares its navigation links and mounts its pages with the panel's helpers, so a new part is a
 * new file and a binding in its module, never an edit of panel.ts or the layout.
 */
export interface AdminSection {
  /** Links of the navigation bar, each shown to the accounts that may open it. */
  nav: AdminNavLink[];
  mount(kit: AdminKit): void;
}

export interface AdminNavLink {
  href: string;
  label: string;
  /** Who sees the link; the page itself checks the role again (the domain refuses, whatever the link). */
  shownTo(actor: Actor): boolean;
}

export interface AdminKit {
  /**
   * Serves `path` with the panel's chain: HTML error pages, allowed methods, secure cookies, the
   * session, the signed-in user, the rate limit and CSRF on every POST.
   */
  page(path: string | string[], allowed: string[], handler: (ctx: Context) => Promise<void>): void;
  /** Renders `template` (a file of admin/templates without `.eta`) inside the layout. */
  render(ctx: Context, template: string, data: Record<string, unknown>, status?: number): void;
  /** 303 to a page of the panel. */
  redirect(ctx: Context, to: string): void;
  /** The signed-in user (banned or suspended ones refused), or null after redirecting to the sign-in page. */
  signedIn(ctx: Context): Promise<AdminSessionActor | null>;
  /** A form field as a string (empty when absent or not a string), cut at `max` characters. */
  field(ctx: Context, name: string, max?: number): string;
  /** A query parameter as a string (empty when absent or repeated). */
  queryOf(ctx: Context, name: string): string;
}
