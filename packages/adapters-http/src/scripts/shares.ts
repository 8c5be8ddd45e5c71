import type { SurfaceEngagementService } from '@plaza/domain/content';
import { z } from 'zod';
import { zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import { zCount, zWireId } from '../presenters/wire.js';
import { postTypeField } from './bookmarks.js';

/**
 * shares.php (contract §9): `post_id`, and an optional `post_type` (group, page) for a group or page
 * post, which is recorded and counted (docs/decisions/0196); a private group's post cannot be shared.
 */
export function sharesScript(engagement: SurfaceEngagementService): Script {
  return {
    name: 'shares',
    operations: [
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'posts',
        body: z.object({ post_id: zId, post_type: postTypeField }),
        summary: "Share a post onto one's wall and followers' feeds",
        response: z.object({ message: z.string(), post_id: zWireId, shared: z.boolean(), shares_count: zCount }),
        handle: async (ctx) => {
          const r = await engagement.share(ctx.actor, ctx.body.post_id, ctx.body.post_type);
          return { message: r.shared ? 'Post shared' : 'Already shared', ...r };
        },
      }),
    ],
  };
}
