/**
 * The in-memory world the fakes share, as the SQL adapters share one database. Each context's fakes own
 * their tables; a fake that reads another context's rows (as a SQL query joins another context's
 * tables) takes them through these views, written once in the shared test kernel, instead of importing
 * that context's fakes: so no context's `testing` folder imports another's in both directions (issue 28,
 * test/architecture/import-cycles.test.ts). The fakes that own the rows satisfy the views as they are.
 */

/** The follows table (social's `InMemoryFollowRepository`). */
export interface FollowEdges {
  readonly edges: readonly { follower_id: number; followee_id: number }[];
}

/** The friend requests table (social's `InMemoryFriendRequestRepository`). */
export interface FriendRequestRows {
  readonly rows: readonly { id: number; sender_id: number; receiver_id: number; status: string }[];
}

/** The posts table, as far as counting a user's posts reads it (content's `InMemoryContentStore`). */
export interface AuthoredPosts {
  readonly posts: ReadonlyMap<number, { user_id: number }>;
}
