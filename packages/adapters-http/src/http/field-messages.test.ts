import { describe as group, expect, it } from 'vitest';
import { z } from 'zod';
import { describe, fieldProblems } from './field-messages.js';
import { zFlag, zId, zNonEmptyText, zPage, zPerPage } from './fields.js';

function problems(schema: z.ZodType, input: unknown, root = '(body)') {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a failure');
  return fieldProblems(result.error, { schema, input, root });
}

group('validation problems in plain words', () => {
  const body = z.object({
    content: z.string().max(10),
    user_id: zId,
    type: z.enum(['like', 'love', 'haha']),
    media: z.array(z.string().min(1, 'must name a file you uploaded').max(255)).max(3).optional(),
    page: zPage,
    per_page: zPerPage,
    notify: zFlag.optional(),
  });

  it('names each field once, in words derived from its schema', () => {
    expect(problems(body, { user_id: 'abc', type: 'meh', page: 0, per_page: 500, notify: 'perhaps' })).toEqual([
      { field: 'content', problem: 'content is required' },
      { field: 'user_id', problem: 'user_id must be a positive whole number' },
      { field: 'type', problem: 'type must be one of like, love, haha' },
      { field: 'page', problem: 'page must be a positive whole number' },
      { field: 'per_page', problem: 'per_page must be a whole number from 1 to 100' },
      { field: 'notify', problem: 'notify must be true or false' },
    ]);
  });

  it('names a list item by its index and keeps a message the operation wrote', () => {
    expect(problems(body, { content: 'hi', user_id: 3, type: 'like', media: ['a.jpg', ''] })).toEqual([
      { field: 'media[1]', problem: 'media[1] must name a file you uploaded' },
    ]);
    expect(problems(body, { content: 'x'.repeat(11), user_id: -4, type: 'like', media: ['a', 'b', 'c', 'd'] })).toEqual([
      { field: 'content', problem: 'content must be text of at most 10 characters' },
      { field: 'user_id', problem: 'user_id must be a positive whole number' },
      { field: 'media', problem: 'media must be a list of at most 3 items, each text of 1 to 255 characters' },
    ]);
  });

  it('tells null from a wrong type, and says when the whole body is wrong', () => {
    expect(problems(z.object({ name: zNonEmptyText(20) }), { name: null })).toEqual([{ field: 'name', problem: 'name is required' }]);
    expect(problems(z.object({ name: zNonEmptyText(20) }), { name: '  ' })).toEqual([{ field: 'name', problem: 'name must not be empty' }]);
    expect(problems(z.object({ a: z.string() }).strict(), { a: 'x', b: 1 })).toEqual([
      { field: 'b', problem: 'b is not a field this request takes' },
    ]);
    const either = z
      .object({ a: z.string().optional(), b: z.string().optional() })
      .refine((v) => v.a !== undefined || v.b !== undefined, { message: 'send a or b', path: ['a'] });
    expect(problems(either, {})).toEqual([{ field: 'a', problem: 'send a or b' }]);
    expect(problems(z.string().email(), 'nope', 'email')).toEqual([{ field: 'email', problem: 'email must be an e-mail address' }]);
  });

  it('describes the shared field types', () => {
    expect(describe(zId)).toBe('a positive whole number');
    expect(describe(z.number().int().min(0))).toBe('a whole number of at least 0');
    expect(describe(z.union([z.literal('image'), z.literal('video')]))).toBe('one of image, video');
    expect(describe(z.string().length(6))).toBe('text of exactly 6 characters');
  });
});
