import type { StoryService } from '@plaza/domain/content';
import { z } from 'zod';
import { zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { presentStory, StoryItem } from '../presenters/post.js';
import { zWireId } from '../presenters/wire.js';

/** Also the library's check (docs/decisions/0113). */
export const storyBody = z.object({ media: z.string().min(1).max(255), text: z.string().max(500).optional().nullable() });

export function storiesScript(stories: StoryService, p: PresenterContext): Script {
  return {
    name: 'stories',
    operations: [
      op({
        method: 'GET',
        select: { has: ['user_id'] },
        auth: 'required',
        query: z.object({ user_id: zId }),
        summary: 'Active stories of a user, under items',
        response: z.object({ items: z.array(StoryItem) }),
        handle: async (ctx) => ({ items: (await stories.ofUser(ctx.actor, ctx.query.user_id)).map((s) => presentStory(s, p)) }),
      }),
      op({
        method: 'GET',
        auth: 'required',
        summary: 'Active stories of followed accounts and own, under items',
        response: z.object({ items: z.array(StoryItem) }),
        handle: async (ctx) => ({ items: (await stories.active(ctx.actor)).map((s) => presentStory(s, p)) }),
      }),
      op({
        method: 'POST',
        auth: 'required',
        body: storyBody,
        summary: 'Create a story (media: bare uploaded file name), visible 24 hours',
        response: z.object({ message: z.string(), id: zWireId, story_id: zWireId, data: StoryItem }),
        handle: async (ctx) => {
          const s = await stories.create(ctx.actor, { media: ctx.body.media, text: ctx.body.text ?? '' });
          return { message: 'Story created', id: s.story.id, story_id: s.story.id, data: presentStory(s, p) };
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        query: z.object({ id: zId }),
        summary: 'Delete own story',
        response: z.object({ message: z.string() }),
        handle: async (ctx) => {
          await stories.delete(ctx.actor, ctx.query.id);
          return { message: 'Story deleted' };
        },
      }),
    ],
  };
}
