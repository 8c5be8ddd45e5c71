import { z } from 'zod';

/**
 * Input primitives shared by every script. Query values arrive as strings and bodies as JSON, so
 * numbers accept both `12` and `"12"`; anything else is a 400.
 */
export const zId = z
  .union([
    z.number().int().positive(),
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

export const zPage = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().min(1))
  .optional();

export const zPerPage = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().min(1).max(100))
  .optional();

/** Flags as the clients send them: JSON booleans in bodies, `1`/`true`/`0`/`false` in queries. */
export const zFlag = z
  .union([z.boolean(), z.literal(1), z.literal(0), z.enum(['1', '0', 'true', 'false', ''])])
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true');

export const zText = (max: number) => z.string().max(max, `must be at most ${max} characters`);

export const zNonEmptyText = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const paginationQuery = { page: zPage, per_page: zPerPage };
