import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { CommentTargets } from '@plaza/domain/content';
import { ReportableContents, ReportablePosts } from '@plaza/domain/moderation';
import { PageCommentTarget, PagePostRepository, PagePostService, PageRepository, PageService } from '@plaza/domain/pages';
import { pagesScript } from '@plaza/adapters-http/scripts/pages';
import { PAGES_MIGRATIONS, SqlPageAccountData, SqlPagePostRepository, SqlPageRepository } from '@plaza/adapters-mysql/pages';
import { featureModule } from '../wiring/feature-module.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';

export const Pages = {
  PageService: token<PageService>('pages.PageService'),
  PagePostService: token<PagePostService>('pages.PagePostService'),
};

/** What pages declares outside the container (docs/decisions/0130): the contract suites of its ports. */
const face = {
  name: 'pages',
  ports: {
    // pages, events, albums
    PageRepository: { suites: ['pages/testing/pages.contract.ts'], via: 'pages' },
    PagePostRepository: { suites: ['pages/testing/pages.contract.ts'], via: 'posts' },
  },
} as const;

/** Pages of collectives: their team (page_admins), followers, posts, reactions and comments (docs/decisions/0035–0036). */
export const pagesModule = featureModule(face, (w) => {
  w.migrations(PAGES_MIGRATIONS);
  w.accountData([DatabaseToken], ({ db }) => new SqlPageAccountData(db));
  w.bind(PageRepository, [DatabaseToken], ({ db, dialect }) => new SqlPageRepository(db, dialect));
  w.bind(PagePostRepository, [DatabaseToken], ({ db, dialect }) => new SqlPagePostRepository(db, dialect));
  w.bind(
    Pages.PageService,
    [PageRepository, UserRepository, Clock, UnitOfWork, Media.References],
    (pages, users, clock, uow, media) => new PageService(pages, users, clock, uow, media),
  );
  w.bind(
    Pages.PagePostService,
    [Pages.PageService, PagePostRepository, UserRepository, Clock, UnitOfWork, Media.References],
    (pages, posts, users, clock, uow, media) => new PagePostService(pages, posts, users, clock, uow, media),
  );
  // comment_reactions.php reaches page comments through this target (comment_type `page`).
  w.bind(ReportableContents, [Pages.PagePostService], (posts) => new ReportablePosts('page', posts.reported));
  w.bind(
    CommentTargets,
    [Pages.PageService, Pages.PagePostService, PagePostRepository, UserRepository],
    (pages, pagePosts, posts, users) => new PageCommentTarget(pages, pagePosts, posts, users),
  );
  w.script([Pages.PageService, Pages.PagePostService, Platform.Presenters], pagesScript);
});
