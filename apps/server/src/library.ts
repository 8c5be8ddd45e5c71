import type { Token } from '@plaza/domain';
import { createLogger } from '@plaza/adapters-http';
import { collectMigrations, migrateToLatest, openDatabase, type DatabaseHandle } from '@plaza/adapters-mysql';
import type { Logger } from 'pino';
import { loadConfig, type Config } from './config.js';
import { checkedInput, type InputRules } from './library-input.js';
import { buildContainer, type ContainerOverrides } from './container.js';
import { PLAZA_MODULES } from './modules/index.js';
import { type FeatureModule, type LibraryFace, resolve, resolveAll, type UseCases } from './wiring/feature-module.js';
import { Migrations } from './wiring/tokens.js';

export interface PlazaLibraryOptions extends ContainerOverrides {
  /** Configuration as environment variables (the README's table); `process.env` when omitted. */
  env?: Record<string, string | undefined>;
  /** Use this already-open database instead of the configured one; it stays open on close(). */
  database?: DatabaseHandle;
  /** Logs as JSON lines; warnings and errors only by default, a tool's output is its own. */
  logger?: Logger;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The services a library face offers, by name. */
type ServicesOf<L> = { [S in keyof L]: L[S] extends UseCases<infer T> ? T : never };
/** What one module adds to `Plaza`: its services under its name, or nothing when it offers none. */
type Offered<M> = M extends FeatureModule<infer N, infer L> ? ([keyof L] extends [never] ? never : { [K in N]: ServicesOf<L> }) : never;

/** Every context's use cases, collected from the modules' faces (docs/decisions/0130): `plaza.social.follows`, `plaza.groups.groups`… */
export type PlazaUseCases = UnionToIntersection<Offered<(typeof PLAZA_MODULES)[number]>>;

/**
 * Plaza's use cases for other Node tools: the same services the HTTP API calls, on the same
 * database (MySQL/MariaDB with `DB_HOST`, else SQLite under `API_DATA_DIR`), with the same rules.
 * Each context offers what its module's face declares (`library`), under the context's name; each
 * method takes the acting user (`actorOf(user)` from `@plaza/domain/accounts`) and plain input.
 * No use case returns a secret: accounts are `UserRecord`s, without password hash or TOTP secret
 * (docs/decisions/0113); every use case checks its input with its HTTP operation's schema (one rule
 * per method in the face, or it does not compile) and refuses bad input with `Invalid`, as HTTP does.
 */
export type Plaza = PlazaUseCases & {
  config: Config;
  /** Anything else the modules bind, by its token (ports included, e.g. `UserRepository`). */
  get<T>(token: Token<T>): T;
  /** Closes the database (unless it was handed in). */
  close(): Promise<void>;
};

/** Each offering module's face, by context name. */
const offering = PLAZA_MODULES.filter((m) => Object.keys(m.face.library ?? {}).length > 0).map((m) => ({
  name: m.face.name as string,
  library: m.face.library as LibraryFace,
}));

/** The input rule of every use case `createPlaza` offers, by context, service and method, as the faces declare them. */
export const LIBRARY_INPUT_RULES: Readonly<Record<string, Readonly<Record<string, InputRules<object>>>>> = Object.fromEntries(
  offering.map(({ name, library }) => [name, Object.fromEntries(Object.entries(library).map(([service, u]) => [service, u.rules]))]),
);

/** Opens the database, brings its schema up to date and returns the typed use cases. */
export async function createPlaza(options: PlazaLibraryOptions = {}): Promise<Plaza> {
  const config = loadConfig(options.env ?? process.env);
  const logger = options.logger ?? createLogger({ level: 'warn' });
  const database = options.database ?? openDatabase(config.database);
  try {
    const container = buildContainer(config, database, logger, options);
    await migrateToLatest(database.db, database.dialect, collectMigrations(resolveAll(container, Migrations)));
    const get = <T>(token: Token<T>) => resolve(container, token);
    const useCases = Object.fromEntries(
      offering.map(({ name, library }) => [
        name,
        Object.fromEntries(Object.entries(library).map(([service, u]) => [service, checkedInput(get(u.token), u.rules)])),
      ]),
    ) as PlazaUseCases;
    return {
      ...useCases,
      config,
      get,
      async close() {
        if (!options.database) await database.close();
      },
    };
  } catch (error) {
    if (!options.database) await database.close();
    throw error;
  }
}
