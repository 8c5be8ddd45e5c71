import { token } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { PostRepository, SurfaceEngagementRepository } from '@plaza/domain/content';
import { DiscoverService, SearchIndex, SearchService, UserSuggestions } from '@plaza/domain/discovery';
import { discoverScript, discoverType } from '@plaza/adapters-http/scripts/discover';
import { searchQuery, searchScript } from '@plaza/adapters-http/scripts/search';
import { DISCOVER_MIGRATIONS, DISCOVERY_MIGRATIONS, SqlSearchIndex, SqlUserSuggestions } from '@plaza/adapters-mysql/discovery';
import { featureModule, useCases } from '../wiring/feature-module.js';
import { ACTOR, arg, pageRequest } from '../library-input.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Groups } from './groups.module.js';
import { Pages } from './pages.module.js';
import { Platform } from './platform.module.js';

export const Discovery = {
  SearchService: token<SearchService>('discovery.SearchService'),
  DiscoverService: token<DiscoverService>('discovery.DiscoverService'),
};

/** What discovery offers outside the container (docs/decisions/0130): `createPlaza().discovery`. */
const face = {
  name: 'discovery',
  library: {
    search: useCases(Discovery.SearchService, {
      search: [ACTOR, arg('input', searchQuery.extend({ type: searchQuery.shape.type.unwrap().exclude(['']), page: pageRequest.schema }))],
    }),
    discover: useCases(Discovery.DiscoverService, {
      discover: [ACTOR, arg('type', discoverType.unwrap().exclude([''])), pageRequest],
    }),
  },
  ports: {
    // discovery
    SearchIndex: { suites: ['discovery/testing/search.contract.ts'], via: 'search' },
    UserSuggestions: { suites: ['discovery/testing/user-suggestions.contract.ts'], via: 'suggestions' },
  },
} as const;

/** Search (docs/decisions/0042) and suggestions (discover.php). */
export const discoveryModule = featureModule(face, (w) => {
  w.migrations(DISCOVERY_MIGRATIONS);
  w.bind(SearchIndex, [DatabaseToken], ({ db, dialect }) => new SqlSearchIndex(db, dialect));
  w.construct(Discovery.SearchService, SearchService, [SearchIndex, UserRepository, PostRepository, SurfaceEngagementRepository]);
  w.script([Discovery.SearchService, Platform.Presenters], searchScript);

  w.migrations(DISCOVER_MIGRATIONS);
  w.bind(UserSuggestions, [DatabaseToken], ({ db, dialect }) => new SqlUserSuggestions(db, dialect));
  w.construct(Discovery.DiscoverService, DiscoverService, [UserSuggestions, UserRepository, Groups.GroupService, Pages.PageService]);
  w.script([Discovery.DiscoverService, Platform.Presenters], discoverScript);
});
