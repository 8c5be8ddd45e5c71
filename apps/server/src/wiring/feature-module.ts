import type { OutboxLane, Token, TokenType } from '@plaza/domain';
import { AccountDataParts, type AccountDataPart } from '@plaza/domain/accounts';
import { type Container, ContainerModule, type ContainerModuleLoadOptions } from 'inversify';
import { Jobs, Migrations, Scripts, type JobRun, type PeriodicJob } from './tokens.js';
import type { PlazaMigrations } from '@plaza/adapters-mysql';
import type { Script } from '@plaza/adapters-http';
import type { InputRules } from '../library-input.js';

/** A dependency on every binding of a multi-bound token (each module adds its own): resolves to an array. */
export interface Many<T> {
  readonly many: Token<T>;
}
export function many<T>(token: Token<T>): Many<T> {
  return { many: token };
}

/** What a binding may depend on: one token, or every binding of a multi-bound one. */
export type Dependency = Token<unknown> | Many<unknown>;
type DependencyType<D> = D extends Many<infer T> ? T[] : TokenType<D>;

/** The types a list of dependencies resolves to, position by position. */
export type Resolved<D extends readonly Dependency[]> = { -readonly [K in keyof D]: DependencyType<D[K]> };

/** Dependencies by name (`{ posts: PostRepository, clock: Clock }`): the form new bindings use. */
export type NamedDependencies = { readonly [name: string]: Dependency };

/** What named dependencies resolve to: the same names, each with its token's type (`{ posts: PostRepository, clock: Clock }`). */
export type ResolvedNamed<D extends NamedDependencies> = { -readonly [K in keyof D]: DependencyType<D[K]> };

function isMany(dep: Dependency): dep is Many<unknown> {
  return typeof dep === 'object';
}

/** A class whose instances are `T`, whatever its constructor takes. */
type ClassOf<T> = new (...args: never) => T;

/**
 * `deps` when what it resolves to can be passed to `C`'s constructor, position by position and in
 * number; otherwise a type no dependency list matches, naming what the constructor takes. Checked
 * as tuples because TypeScript compares a constructor's parameters bivariantly: matched against a
 * constructor type, a dependency whose type is a supertype of the parameter's would pass.
 */
type ConstructorDependencies<C extends ClassOf<unknown>, D extends readonly Dependency[]> =
  Resolved<D> extends ConstructorParameters<C> ? D : { readonly 'the constructor takes': ConstructorParameters<C> };

/** A builder in either form, taking what the container resolved (in the order of `deps`'s values). */
type Builder<T> = (resolved: unknown[]) => T;

/** The container's request for each dependency, and a builder that hands `build` the resolved values in its form. */
function plan<T>(
  deps: readonly Dependency[] | NamedDependencies,
  build: (...args: never[]) => T,
): { requests: Dependency[]; builder: Builder<T> } {
  const named = !Array.isArray(deps);
  const names = named ? Object.keys(deps) : [];
  const requests: Dependency[] = named ? names.map((n) => (deps as NamedDependencies)[n]) : [...(deps as readonly Dependency[])];
  // A multi-bound dependency with no binding yet resolves to `undefined` (optional): an empty list.
  const values = (resolved: unknown[]) => resolved.map((a, i) => (isMany(requests[i]) ? ((a as unknown[] | undefined) ?? []) : a));
  const call = build as (...a: unknown[]) => T;
  const builder: Builder<T> = named
    ? (resolved) => {
        const args = values(resolved);
        return call(Object.fromEntries(names.map((n, i) => [n, args[i]])));
      }
    : (resolved) => call(...values(resolved));
  return { requests, builder };
}

/**
 * The one way to bind in a feature module. Every binding names its dependencies by token and builds
 * its value from them with a function the compiler checks against those tokens: a dependency of the
 * wrong type, a missing one, or a token bound to the wrong type fails `tsc`. The dependencies are
 * named (`{ posts: PostRepository, clock: Clock }`, the builder receives `{ posts, clock }`: each is
 * written twice, docs/decisions/0130) or, in the older form, listed (`[PostRepository, Clock]`, the
 * builder takes them as positional parameters). A class whose constructor takes its dependencies as
 * they come is bound with `construct` (`w.construct(Token, Service, [PostRepository, Clock])`): each
 * dependency written once, docs/decisions/0235. Everything is a singleton (the container's default scope).
 */
export class Wiring {
  constructor(
    private readonly options: ContainerModuleLoadOptions,
    private readonly bound: Set<symbol>,
  ) {}

  /** Binds `token` to what `build` makes of the resolved dependencies. */
  bind<T, const D extends NamedDependencies>(token: Token<T>, deps: D, build: (deps: ResolvedNamed<D>) => NoInfer<T>): void;
  bind<T, const D extends readonly Dependency[]>(token: Token<T>, deps: D, build: (...deps: Resolved<D>) => NoInfer<T>): void;
  bind<T>(token: Token<T>, deps: readonly Dependency[] | NamedDependencies, build: (...args: never[]) => T): void {
    this.bound.add(token);
    const { requests, builder } = plan(deps, build);
    const options = requests.map((d) =>
      isMany(d) ? { serviceIdentifier: d.many, isMultiple: true as const, optional: true as const } : d,
    );
    this.options.bind<T>(token).toResolvedValue((...resolved: unknown[]) => builder(resolved), options as never);
  }

  /**
   * Binds `token` to `new type(...resolved)`: for a constructor that takes its dependencies as they
   * come, each written once in `deps` (no factory repeating them as parameters and arguments). The
   * resolved types must be the constructor's parameters exactly, position by position, or `tsc` fails.
   */
  construct<T, C extends ClassOf<NoInfer<T>>, const D extends readonly Dependency[]>(
    token: Token<T>,
    type: C,
    deps: ConstructorDependencies<C, D>,
  ): void {
    const make = type as unknown as new (...args: unknown[]) => T;
    this.bind(token, deps as readonly Dependency[], (...resolved: unknown[]) => new make(...resolved));
  }

  /** Binds `token` to a value that needs nothing else. */
  constant<T>(token: Token<T>, value: NoInfer<T>): void {
    this.bound.add(token);
    this.options.bind<T>(token).toConstantValue(value);
  }

  /** Adds a `.php` script to the ones the HTTP app serves. */
  script<const D extends NamedDependencies>(deps: D, build: (deps: ResolvedNamed<D>) => Script): void;
  script<const D extends readonly Dependency[]>(deps: D, build: (...deps: Resolved<D>) => Script): void;
  script(deps: readonly Dependency[] | NamedDependencies, build: (...args: never[]) => Script): void {
    this.bind(Scripts, deps as NamedDependencies, build as (deps: unknown) => Script);
  }

  /** Adds a periodic housekeeping job to the ones the job runner starts. */
  job<const D extends NamedDependencies>(job: Omit<PeriodicJob, 'run'>, deps: D, run: (deps: ResolvedNamed<D>) => JobRun): void;
  job<const D extends readonly Dependency[]>(job: Omit<PeriodicJob, 'run'>, deps: D, run: (...deps: Resolved<D>) => JobRun): void;
  job(job: Omit<PeriodicJob, 'run'>, deps: readonly Dependency[] | NamedDependencies, run: (...args: never[]) => JobRun): void {
    const { builder } = plan(deps, run);
    // Bound through the positional form: `builder` already hands `run` its dependencies in their own form.
    const requests = Array.isArray(deps) ? (deps as readonly Dependency[]) : Object.values(deps);
    this.bind(Jobs, requests, (...resolved: unknown[]) => ({ ...job, run: builder(resolved) }));
  }

  /**
   * Adds a job that drains an outbox table (docs/decisions/0215): timers run `run` every period, as
   * a periodic job; BullMQ relays the lane's committed rows, one job each, and delivers them.
   */
  outboxJob<const D extends readonly Dependency[]>(
    job: Omit<PeriodicJob, 'run' | 'outbox'>,
    deps: D,
    build: (...deps: Resolved<D>) => { run: JobRun; outbox: OutboxLane },
  ): void {
    this.bind(Jobs, deps, (...resolved: Resolved<D>) => ({ ...job, ...build(...resolved) }));
  }

  /** Contributes this context's share of an account's data to deletion and export (docs/decisions/0093). */
  accountData<const D extends NamedDependencies>(deps: D, build: (deps: ResolvedNamed<D>) => AccountDataPart): void;
  accountData<const D extends readonly Dependency[]>(deps: D, build: (...deps: Resolved<D>) => AccountDataPart): void;
  accountData(deps: readonly Dependency[] | NamedDependencies, build: (...args: never[]) => AccountDataPart): void {
    this.bind(AccountDataParts, deps as NamedDependencies, build as (deps: unknown) => AccountDataPart);
  }

  /** Contributes this context's migrations; the runner merges every module's set. */
  migrations(set: PlazaMigrations): void {
    this.constant(Migrations, set);
  }
}

/** A service `createPlaza()` offers: its token, and the input rule of each of its methods (docs/decisions/0113). */
export interface UseCases<S extends object = object> {
  readonly token: Token<S>;
  readonly rules: InputRules<S>;
}

/** Offers the service behind `token` to `createPlaza()`, each method checking its input by its rule. */
export function useCases<S extends object>(token: Token<S>, rules: InputRules<S>): UseCases<S> {
  return { token, rules };
}

/** A context's use cases by the name `createPlaza()` gives them (`plaza.social.follows`). */
export type LibraryFace = { readonly [name: string]: UseCases<any> };

/**
 * Where a port is pinned down: the contract suites (paths under packages/domain/src, run against the
 * in-memory fake and the SQL adapter by test/contracts) and the name the suites call it by
 * (`ports.groups.updateMessage(…)` → `groups`); or that it has no SQL adapter (test/architecture checks it has none).
 */
export type PortContract = { readonly suites: readonly string[]; readonly via: string } | 'no SQL adapter';

/**
 * What a context declares beside its bindings, for the places that used to list every context by hand
 * (docs/decisions/0130): `createPlaza()` offers its `library` under `name`; the contract-coverage test
 * reads its `ports`.
 */
export interface ContextFace<N extends string = string, L extends LibraryFace = LibraryFace> {
  /** The context's name: its key in what `createPlaza()` answers. */
  readonly name: N;
  /** The use cases it offers to `createPlaza()`. */
  readonly library?: L;
  /** The ports it owns, each with the contract suite that pins it down. */
  readonly ports?: Readonly<Record<string, PortContract>>;
}

/** A bounded context's bindings (repositories, services, scripts, jobs and migrations) and its face. */
export class FeatureModule<N extends string = string, L extends LibraryFace = LibraryFace> extends ContainerModule {
  /** Every token the module bound, once loaded: what the wiring test resolves. */
  readonly tokens = new Set<symbol>();
  declare readonly face: ContextFace<N, L>;
}

/** A context's module: its face (what it offers outside the container) and its bindings. */
export function featureModule<N extends string, const L extends LibraryFace = Record<never, never>>(
  face: ContextFace<N, L>,
  load: (wire: Wiring) => void,
): FeatureModule<N, L>;
/** Bindings with no face (tests, and modules that offer nothing yet). */
export function featureModule(load: (wire: Wiring) => void): FeatureModule<never, Record<never, never>>;
export function featureModule(faceOrLoad: ContextFace | ((wire: Wiring) => void), load?: (wire: Wiring) => void): FeatureModule {
  const face = typeof faceOrLoad === 'function' ? { name: '' } : faceOrLoad;
  const bindings = typeof faceOrLoad === 'function' ? faceOrLoad : load!;
  const module: FeatureModule = new FeatureModule((options) => bindings(new Wiring(options, module.tokens)));
  Object.defineProperty(module, 'face', { value: face, enumerable: true });
  return module;
}

/** Inversify cannot infer a type from a symbol; these read it from the token. */
export function resolve<T>(container: Container, token: Token<T>): T {
  return container.get<T>(token);
}

export function resolveAll<T>(container: Container, token: Token<T>): T[] {
  return container.getAll<T>(token);
}
