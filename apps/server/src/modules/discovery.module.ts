import { token } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { PostRepository } from '@plaza/domain/content';
import { DiscoverService, SearchIndex, SearchService, UserSuggestions } from '@plaza/domain/discovery';
import { discoverScript } from '@plaza/adapters-http/scripts/discover';
import { searchScript } from '@plaza/adapters-http/scripts/search';
import { DISCOVER_MIGRATIONS, DISCOVERY_MIGRATIONS, SqlSearchIndex, SqlUserSuggestions } from '@plaza/adapters-mysql/discovery';
import { featureModule } from '../wiring/feature-module.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Groups } from './groups.module.js';
import { Pages } from './pages.module.js';
import { Platform } from './platform.module.js';

export const Discovery = {
  SearchService: token<SearchService>('discovery.SearchService'),
  DiscoverService: token<DiscoverService>('discovery.DiscoverService'),
};

/** Search (docs/decisions/0042) and suggestions (discover.php). */
export const discoveryModule = featureModule((w) => {
  w.migrations(DISCOVERY_MIGRATIONS);
  w.bind(SearchIndex, [DatabaseToken], ({ db, dialect }) => new SqlSearchIndex(db, dialect));
  w.bind(
    Discovery.SearchService,
    [SearchIndex, UserRepository, PostRepository],
    (index, users, posts) => new SearchService(index, users, posts),
  );
  w.script([Discovery.SearchService, Platform.Presenters], searchScript);

  w.migrations(DISCOVER_MIGRATIONS);
  w.bind(UserSuggestions, [DatabaseToken], ({ db, dialect }) => new SqlUserSuggestions(db, dialect));
  w.bind(
    Discovery.DiscoverService,
    [UserSuggestions, UserRepository, Groups.GroupService, Pages.PageService],
    (suggestions, users, groups, pages) => new DiscoverService(suggestions, users, groups, pages),
  );
  w.script([Discovery.DiscoverService, Platform.Presenters], discoverScript);
});
