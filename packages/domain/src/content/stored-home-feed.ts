import type { PageRequest } from '../shared/pagination.js';
import type { PostView } from './model.js';
import type { SurfaceShareLine } from './wall-items.js';
import type { Viewer } from './visibility.js';

/**
 * The precomputed following feed that `PostService.feed` reads through, kept by the timeline context
 * (`HomeTimeline`, docs/decisions/0071): a page of it as the viewer sees it, or null when the page lies
 * below what it stores (the feed is then read at read time). Content names what it reads; the timeline
 * provides it, so content does not import the timeline that listens to it.
 */
export interface StoredHomeFeed {
  /** Wall posts as the viewer sees them; shares of group and page posts as lines the caller reads (docs/decisions/0230). */
  page(viewer: Viewer, page: PageRequest): Promise<(PostView | SurfaceShareLine)[] | null>;
}
