import type { AuthService, ProfileService, Clock } from '@plaza/domain';
import type { FollowService, FriendService, MessageGroupService, PrivateMessageService, TypingService } from '@plaza/domain';
import type { CommentService, EngagementService, NotificationInboxService, PostService, StoryService } from '@plaza/domain';
import type { Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import type { FederationIdentity } from '../presenters/user.js';
import { authScript } from './auth.js';
import { followsScript } from './follows.js';
import { friendsScript } from './friends.js';
import { messageGroupsScript } from './message-groups.js';
import { messagesScript } from './messages.js';
import { bookmarksScript } from './bookmarks.js';
import { commentReactionsScript } from './comment-reactions.js';
import { commentsScript } from './comments.js';
import { notificationsScript } from './notifications.js';
import { postsScript } from './posts.js';
import { likesScript, reactionsScript } from './reactions.js';
import { sharesScript } from './shares.js';
import { storiesScript } from './stories.js';
import { indexScript } from './index-script.js';
import { settingsScript, type PublicSettingsSource } from './settings.js';
import { usersScript } from './users.js';

export interface HealthReport {
  status: 'ok' | 'degraded';
  timestamp: string;
  database: { reachable: boolean; dialect: string };
}

/** Everything the HTTP side calls; the composition root fills it. */
export interface HttpServices {
  clock: Clock;
  auth: AuthService;
  profiles: ProfileService;
  settings: PublicSettingsSource;
  federation: FederationIdentity;
  health: { check(): Promise<HealthReport> };
  follows: FollowService;
  friends: FriendService;
  privateMessages: PrivateMessageService;
  messageGroups: MessageGroupService;
  typing: TypingService;
  posts: PostService;
  engagement: EngagementService;
  comments: CommentService;
  stories: StoryService;
  notificationInbox: NotificationInboxService;
}

export function buildScripts(s: HttpServices, p: PresenterContext): Script[] {
  const scripts: Script[] = [];
  scripts.push(
    indexScript(() => scripts),
    authScript(s.auth, p),
    usersScript(s.profiles, s.federation, p),
    settingsScript(s.settings),
    followsScript(s.follows, p),
    friendsScript(s.friends, p),
    messagesScript(s.privateMessages, s.typing, p),
    messageGroupsScript(s.messageGroups, s.typing, p),
    postsScript(s.posts, p),
    commentsScript(s.comments, p),
    commentReactionsScript(s.comments, p),
    reactionsScript(s.engagement),
    likesScript(s.engagement),
    bookmarksScript(s.posts, s.engagement, p),
    sharesScript(s.engagement),
    storiesScript(s.stories, p),
    notificationsScript(s.notificationInbox, p),
  );
  return scripts;
}
