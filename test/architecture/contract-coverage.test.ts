import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/**
 * Where each port of packages/domain is pinned down: the contract suites (run against the in-memory
 * fake and the SQL adapter by test/contracts) and the name the suites call the port by
 * (`ports.groups.updateMessage(…)` or `groups.updateMessage(…)` → `groups`).
 * A port is an interface with a same-named `token<…>()` constant. Every port must be listed: a port
 * with a SQL adapter names its suites, a port without one says so (and the test checks it has none).
 */
type Coverage = { suites: string[]; via: string } | 'no SQL adapter';

const SUITES = 'packages/domain/src';
const PORT_COVERAGE: Record<string, Coverage> = {
  // accounts
  UserRepository: { suites: [`${SUITES}/accounts/testing/accounts.contract.ts`], via: 'users' },
  AccessTokenRepository: { suites: [`${SUITES}/accounts/testing/accounts.contract.ts`], via: 'tokens' },
  PasswordResetRepository: { suites: [`${SUITES}/accounts/testing/accounts.contract.ts`], via: 'resets' },
  ProfileStatsReader: { suites: [`${SUITES}/accounts/testing/profile-stats.contract.ts`], via: 'stats' },
  PasswordHasher: 'no SQL adapter',
  TotpVerifier: 'no SQL adapter',
  SecretTokens: 'no SQL adapter',
  Mailer: 'no SQL adapter',
  RecoveryCodeRepository: { suites: [`${SUITES}/accounts/testing/account-settings.contract.ts`], via: 'recovery' },
  ReauthenticationAttempts: { suites: [`${SUITES}/accounts/testing/reauthentication.contract.ts`], via: 'attempts' },
  MailOutbox: { suites: [`${SUITES}/accounts/testing/account-settings.contract.ts`], via: 'outbox' },
  MailDeliveryLog: 'no SQL adapter',
  NotificationPreferenceRepository: { suites: [`${SUITES}/accounts/testing/account-settings.contract.ts`], via: 'preferences' },
  DeletionRequestRepository: { suites: [`${SUITES}/accounts/testing/account-settings.contract.ts`], via: 'deletions' },
  AccountHoldRepository: { suites: [`${SUITES}/accounts/testing/registration.contract.ts`], via: 'holds' },
  InvitationRepository: { suites: [`${SUITES}/accounts/testing/registration.contract.ts`], via: 'invitations' },
  EmailConfirmationRepository: { suites: [`${SUITES}/accounts/testing/registration.contract.ts`], via: 'confirmations' },
  AuthInvalidation: { suites: [`${SUITES}/accounts/testing/auth-invalidation.contract.ts`], via: 'signal' },
  // export and erasure span every context's tables: their suite runs on SQL (test/contracts/accounts.test.ts)
  AccountEraser: { suites: [`${SUITES}/accounts/testing/account-settings.contract.ts`], via: 'eraser' },
  AccountDataReader: { suites: [`${SUITES}/accounts/testing/account-settings.contract.ts`], via: 'reader' },
  ExportedPosts: { suites: [`${SUITES}/accounts/testing/account-settings.contract.ts`], via: 'reader' },
  // social (the list and friend-request cases live in the messaging suite, which is given both)
  FollowRepository: {
    suites: [`${SUITES}/social/testing/social.contract.ts`, `${SUITES}/messaging/testing/messaging.contract.ts`],
    via: 'follows',
  },
  FriendRequestRepository: {
    suites: [`${SUITES}/messaging/testing/messaging.contract.ts`, `${SUITES}/shared/testing/unit-of-work.contract.ts`],
    via: 'friends',
  },
  // messaging
  PrivateMessageRepository: { suites: [`${SUITES}/messaging/testing/messaging.contract.ts`], via: 'messages' },
  MessageGroupRepository: {
    suites: [`${SUITES}/messaging/testing/messaging.contract.ts`, `${SUITES}/shared/testing/unit-of-work.contract.ts`],
    via: 'groups',
  },
  TypingRepository: { suites: [`${SUITES}/messaging/testing/messaging.contract.ts`], via: 'typing' },
  // notifications (the inbox reads what content raises, so its cases live in the content suite)
  NotificationRepository: { suites: [`${SUITES}/notifications/testing/notifications.contract.ts`], via: 'notifications' },
  NotificationInbox: {
    suites: [`${SUITES}/content/testing/content.contract.ts`, `${SUITES}/groups/testing/groups.contract.ts`],
    via: 'inbox',
  },
  PushSender: 'no SQL adapter',
  PushOutbox: { suites: [`${SUITES}/notifications/testing/push-outbox.contract.ts`], via: 'outbox' },
  // content
  PostRepository: { suites: [`${SUITES}/content/testing/content.contract.ts`], via: 'posts' },
  PostEngagementRepository: { suites: [`${SUITES}/content/testing/content.contract.ts`], via: 'engagement' },
  CommentRepository: { suites: [`${SUITES}/content/testing/content.contract.ts`], via: 'comments' },
  StoryRepository: { suites: [`${SUITES}/content/testing/content.contract.ts`], via: 'stories' },
  // timeline
  HomeTimelineRepository: { suites: [`${SUITES}/timeline/testing/home-timeline.contract.ts`], via: 'timelines' },
  // calls
  CallRepository: { suites: [`${SUITES}/calls/testing/calls.contract.ts`], via: 'calls' },
  // lives
  LiveRepository: { suites: [`${SUITES}/lives/testing/lives.contract.ts`], via: 'lives' },
  MediaServer: 'no SQL adapter',
  // federation (RemoteDirectory and FederationOutbox are the network side: e2e tests against loopback peers)
  ActorKeyRepository: { suites: [`${SUITES}/federation/testing/federation.contract.ts`], via: 'keys' },
  RemoteActorRepository: { suites: [`${SUITES}/federation/testing/federation.contract.ts`], via: 'actors' },
  RemoteFollowRepository: { suites: [`${SUITES}/federation/testing/federation.contract.ts`], via: 'follows' },
  RemotePostRepository: { suites: [`${SUITES}/federation/testing/federation.contract.ts`], via: 'posts' },
  FederationKeyValues: { suites: [`${SUITES}/federation/testing/federation.contract.ts`], via: 'kv' },
  FederationQueue: { suites: [`${SUITES}/federation/testing/federation.contract.ts`], via: 'queue' },
  DomainBlockRepository: { suites: [`${SUITES}/federation/testing/federation.contract.ts`], via: 'blocks' },
  RemoteDirectory: 'no SQL adapter',
  FederationOutbox: 'no SQL adapter',
  // moderation
  ReportRepository: { suites: [`${SUITES}/moderation/testing/moderation.contract.ts`], via: 'reports' },
  SanctionRepository: { suites: [`${SUITES}/moderation/testing/moderation.contract.ts`], via: 'sanctions' },
  SuspensionRepository: { suites: [`${SUITES}/moderation/testing/moderation.contract.ts`], via: 'suspensions' },
  ModerationLog: { suites: [`${SUITES}/moderation/testing/moderation.contract.ts`], via: 'log' },
  CandidacyRepository: { suites: [`${SUITES}/moderation/testing/moderation.contract.ts`], via: 'candidacies' },
  ModeratorRoster: { suites: [`${SUITES}/moderation/testing/moderation.contract.ts`], via: 'roster' },
  FeatureSuggestionRepository: { suites: [`${SUITES}/moderation/testing/moderation.contract.ts`], via: 'suggestions' },
  // admin (the settings stores' adapters are files: test/contracts/admin.test.ts runs the suite on them)
  AdminSessionStore: { suites: [`${SUITES}/admin/testing/admin.contract.ts`], via: 'sessions' },
  AdminRoster: { suites: [`${SUITES}/admin/testing/admin.contract.ts`], via: 'roster' },
  MediaServerSettingsStore: { suites: [`${SUITES}/admin/testing/admin.contract.ts`], via: 'media' },
  TurnSettingsStore: { suites: [`${SUITES}/admin/testing/admin.contract.ts`], via: 'turn' },
  // groups (community groups; the inbox's group cases live in the groups suite too)
  GroupRepository: { suites: [`${SUITES}/groups/testing/groups.contract.ts`], via: 'groups' },
  GroupPostRepository: { suites: [`${SUITES}/groups/testing/groups.contract.ts`], via: 'posts' },
  GroupCommentRepository: { suites: [`${SUITES}/groups/testing/groups.contract.ts`], via: 'comments' },
  // pages, events, albums
  PageRepository: { suites: [`${SUITES}/pages/testing/pages.contract.ts`], via: 'pages' },
  PagePostRepository: { suites: [`${SUITES}/pages/testing/pages.contract.ts`], via: 'posts' },
  EventRepository: { suites: [`${SUITES}/events/testing/events.contract.ts`], via: 'events' },
  AlbumRepository: { suites: [`${SUITES}/albums/testing/albums.contract.ts`], via: 'albums' },
  // limits
  RateLimitStore: { suites: [`${SUITES}/limits/testing/rate-limit-store.contract.ts`], via: 'store' },
  // media (UploadedMedia's adapter is the file system; its suite runs on it and the fake, test/contracts/media.test.ts)
  UploadedMedia: { suites: [`${SUITES}/media/testing/media.contract.ts`], via: 'uploaded' },
  UploadRegistry: { suites: [`${SUITES}/media/testing/uploads.contract.ts`], via: 'registry' },
  // the file system's digests and removals (adapters-integrations/upload-files), exercised by the e2e collection tests
  UploadFiles: 'no SQL adapter',
  MediaInspector: 'no SQL adapter',
  MediaStore: 'no SQL adapter',
  Translator: 'no SQL adapter',
  TranslationCache: { suites: [`${SUITES}/media/testing/media.contract.ts`], via: 'cache' },
  // discovery
  SearchIndex: { suites: [`${SUITES}/discovery/testing/search.contract.ts`], via: 'search' },
  UserSuggestions: { suites: [`${SUITES}/discovery/testing/user-suggestions.contract.ts`], via: 'suggestions' },
  // shared
  Clock: 'no SQL adapter',
  UnitOfWork: { suites: [`${SUITES}/shared/testing/unit-of-work.contract.ts`], via: 'uow' },
};

interface Source {
  path: string;
  text: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

const read = (path: string): Source => ({ path: relative(root, path), text: readFileSync(path, 'utf8') });
const parse = (s: Source) => ts.createSourceFile(s.path, s.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

function visit(node: ts.Node, f: (n: ts.Node) => void) {
  f(node);
  node.forEachChild((child) => visit(child, f));
}

/** Ports declared in these files: each interface that has a same-named `token<…>()` constant, with its method names. */
function portsIn(files: Source[]): Map<string, { file: string; methods: string[] }> {
  const interfaces = new Map<string, { file: string; decl: ts.InterfaceDeclaration }>();
  const tokens = new Set<string>();
  for (const file of files) {
    visit(parse(file), (n) => {
      if (ts.isInterfaceDeclaration(n)) interfaces.set(n.name.text, { file: file.path, decl: n });
      if (
        ts.isVariableDeclaration(n) &&
        ts.isIdentifier(n.name) &&
        n.initializer &&
        ts.isCallExpression(n.initializer) &&
        ts.isIdentifier(n.initializer.expression) &&
        n.initializer.expression.text === 'token'
      ) {
        tokens.add(n.name.text);
      }
    });
  }
  const methodsOf = (name: string): string[] => {
    const found = interfaces.get(name);
    if (!found) throw new Error(`interface ${name} not found in the domain sources`);
    const own = found.decl.members.flatMap((m) => {
      const isMethod = ts.isMethodSignature(m) || (ts.isPropertySignature(m) && m.type !== undefined && ts.isFunctionTypeNode(m.type));
      return isMethod && m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? [m.name.text] : [];
    });
    // Methods a port inherits from another domain interface count as its own.
    const inherited = (found.decl.heritageClauses ?? []).flatMap((h) =>
      h.types.flatMap((t) => (ts.isIdentifier(t.expression) ? methodsOf(t.expression.text) : [])),
    );
    return [...new Set([...inherited, ...own])];
  };
  const ports = new Map<string, { file: string; methods: string[] }>();
  for (const name of tokens) {
    if (interfaces.has(name)) ports.set(name, { file: interfaces.get(name)!.file, methods: methodsOf(name) });
  }
  return ports;
}

/** Methods called on `via` in these suites: `via.m(…)` or `something.via.m(…)`; comments and strings do not count. */
function methodsCalled(suites: Source[], via: string): Set<string> {
  const called = new Set<string>();
  for (const suite of suites) {
    visit(parse(suite), (n) => {
      if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression)) return;
      const receiver = n.expression.expression;
      const receiverName = ts.isIdentifier(receiver) ? receiver.text : ts.isPropertyAccessExpression(receiver) ? receiver.name.text : null;
      if (receiverName === via) called.add(n.expression.name.text);
    });
  }
  return called;
}

/** Port names that a class in these files declares it implements. */
function implementedIn(files: Source[]): Set<string> {
  const out = new Set<string>();
  for (const file of files) {
    visit(parse(file), (n) => {
      if (!ts.isClassDeclaration(n)) return;
      for (const clause of n.heritageClauses ?? []) {
        if (clause.token !== ts.SyntaxKind.ImplementsKeyword) continue;
        for (const t of clause.types) if (ts.isIdentifier(t.expression)) out.add(t.expression.text);
      }
    });
  }
  return out;
}

/** Everything wrong with the coverage of these ports by these suites; empty when every method is pinned down. */
function coverageProblems(input: {
  ports: Map<string, { file: string; methods: string[] }>;
  table: Record<string, Coverage>;
  suite: (path: string) => Source;
  sqlImplemented: Set<string>;
}): string[] {
  const problems: string[] = [];
  for (const [name, port] of input.ports) {
    const coverage = input.table[name];
    if (coverage === undefined) {
      problems.push(`${name} (${port.file}) is missing from PORT_COVERAGE: name its contract suite`);
      continue;
    }
    if (coverage === 'no SQL adapter') {
      if (input.sqlImplemented.has(name)) problems.push(`${name} has a SQL adapter now: give it a contract suite in PORT_COVERAGE`);
      continue;
    }
    const called = methodsCalled(coverage.suites.map(input.suite), coverage.via);
    for (const method of port.methods) {
      if (!called.has(method))
        problems.push(
          `${name}.${method} is called by no contract test (${coverage.suites.join(', ')}; looked for ${coverage.via}.${method}(…))`,
        );
    }
  }
  for (const name of Object.keys(input.table)) {
    if (!input.ports.has(name)) problems.push(`PORT_COVERAGE lists ${name}, which is no longer a port`);
  }
  return problems;
}

describe('contract coverage', () => {
  it('calls every method of every port with a SQL adapter from its contract suite', () => {
    const domain = sources(join(root, 'packages/domain/src'))
      .filter((f) => !f.endsWith('.test.ts') && !relative(root, f).split('/').includes('testing'))
      .map(read);
    const ports = portsIn(domain);
    // Guards the guard: the ports the table was written for are still found, with their methods.
    expect(ports.get('MessageGroupRepository')?.methods).toContain('updateMessage');
    expect(ports.get('ProfileStatsReader')?.methods).toEqual(['profileOf']);
    const problems = coverageProblems({
      ports,
      table: PORT_COVERAGE,
      suite: (path) => read(join(root, path)),
      sqlImplemented: implementedIn(sources(join(root, 'packages/adapters-mysql/src')).map(read)),
    });
    expect(problems).toEqual([]);
  });

  it('catches an uncovered method, an unlisted port, an adapter without a suite and a stale entry', () => {
    const domain: Source[] = [
      {
        path: 'widgets/ports.ts',
        text: `
          import { token } from '../shared/token.js';
          interface Named { rename(id: number, name: string): Promise<void>; }
          export interface WidgetRepository extends Named {
            create(name: string): Promise<number>;
            /** Archived widgets are hidden. */
            archive(id: number): Promise<void>;
            findById: (id: number) => Promise<{ id: number } | null>;
            readonly label: string;
          }
          export const WidgetRepository = token<WidgetRepository>('WidgetRepository');
          export interface GadgetStore { put(key: string): Promise<void>; }
          export const GadgetStore = token<GadgetStore>('GadgetStore');
          export interface Sprocket { spin(): void; }
          export const Sprocket = token<Sprocket>('Sprocket');
          export interface WidgetView { id: number; }`,
      },
    ];
    const suite: Source = {
      path: 'widgets/testing/widgets.contract.ts',
      text: `
        it('creates and finds', async () => {
          const id = await ports.widgets.create('w');
          expect(await widgets.findById(id)).not.toBeNull();
          await widgets.rename(id, 'x');
          // widgets.archive(id) is not exercised, and neither is this:
          const text = 'widgets.archive(id)';
          await gadgets.archive(id);
        });`,
    };
    const ports = portsIn(domain);
    expect([...ports.keys()].sort()).toEqual(['GadgetStore', 'Sprocket', 'WidgetRepository']);
    expect(ports.get('WidgetRepository')?.methods.sort()).toEqual(['archive', 'create', 'findById', 'rename']);
    const problems = coverageProblems({
      ports,
      table: { WidgetRepository: { suites: [suite.path], via: 'widgets' }, Sprocket: 'no SQL adapter', Gizmo: 'no SQL adapter' },
      suite: () => suite,
      sqlImplemented: implementedIn([{ path: 'sql-sprocket.ts', text: 'export class SqlSprocket implements Sprocket { spin() {} }' }]),
    });
    expect(problems).toEqual([
      expect.stringMatching(/^WidgetRepository\.archive is called by no contract test/),
      expect.stringMatching(/^GadgetStore .* is missing from PORT_COVERAGE/),
      expect.stringMatching(/^Sprocket has a SQL adapter now/),
      expect.stringMatching(/^PORT_COVERAGE lists Gizmo, which is no longer a port/),
    ]);
  });
});
