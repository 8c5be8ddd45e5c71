import type { ListPage, Timestamp } from '@plaza/domain';
import { z } from 'zod';
import type { PresenterContext } from './context.js';

/**
 * Wire primitives shared by the presenters' schemas (DESIGN.md §2): ids and counters are JSON
 * numbers, flags JSON booleans, timestamps `YYYY-MM-DD HH:MM:SS` strings.
 */

/** A row id as emitted: a positive integer. */
export const zWireId = z.number().int().positive();

/** A counter: a non-negative integer. */
export const zCount = z.number().int().nonnegative();

/** A timestamp in the spec's form, in the configured zone. */
export const zTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

/** The pagination `meta` object, where a list carries one. */
export const PageMetaWire = z.object({
  current_page: z.number().int().positive(),
  per_page: z.number().int().positive(),
  total: zCount,
  total_pages: zCount,
});

/**
 * The `pagination` object of the lists read one row past the page (posts, bookmarks, comments,
 * notifications): `has_more` rather than a total, so a page costs no count query.
 */
export const ListPagination = z.object({
  current_page: z.number().int().positive(),
  per_page: z.number().int().positive(),
  has_more: z.boolean(),
});

export function presentPagination(page: ListPage<unknown>): z.input<typeof ListPagination> {
  return { current_page: page.page, per_page: page.per_page, has_more: page.has_more };
}

/** Formats a timestamp that cannot be null (formatTime only answers null for null). */
export function wireTime(p: PresenterContext, ts: Timestamp): string {
  const formatted = p.formatTime(ts);
  if (formatted === null) throw new Error(`unformattable timestamp ${ts}`);
  return formatted;
}

/** A related account as items name it: its username, or '' when it no longer exists. */
export const nameOf = (u: { username: string } | null | undefined): string => u?.username ?? '';

/** A related account's avatar, or the placeholder the clients show for none (contract §36.6). */
export const avatarOf = (u: { avatar: string | null } | null | undefined): string => u?.avatar ?? 'default.svg';
