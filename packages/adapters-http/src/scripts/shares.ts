import type { EngagementService } from '@plaza/domain/content';
import { z } from 'zod';
import { zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import { zCount, zWireId } from '../presenters/wire.js';

export function sharesScript(engagement: EngagementService): Script {
  return {
    name: 'shares',
    operations: [
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'posts',
        body: z.object({ post_id: zId }),
        summary: "Share a post onto one's wall and followers' feeds",
        response: z.object({ message: z.string(), post_id: zWireId, shared: z.boolean(), shares_count: zCount }),
        handle: async (ctx) => {
          const r = await engagement.share(ctx.actor, ctx.body.post_id);
          return { message: r.shared ? 'Post shared' : 'Already shared', ...r };
        },
      }),
    ],
  };
}
