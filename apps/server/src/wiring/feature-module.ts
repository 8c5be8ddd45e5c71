import type { Token, TokenType } from '@plaza/domain';
import { AccountDataParts, type AccountDataPart } from '@plaza/domain/accounts';
import { type Container, ContainerModule, type ContainerModuleLoadOptions } from 'inversify';
import { Jobs, Migrations, Scripts, type JobRun, type PeriodicJob } from './tokens.js';
import type { PlazaMigrations } from '@plaza/adapters-mysql';
import type { Script } from '@plaza/adapters-http';

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

function isMany(dep: Dependency): dep is Many<unknown> {
  return typeof dep === 'object';
}

/**
 * The one way to bind in a feature module. Every binding names its dependencies by token and builds
 * its value from them with a function whose parameters the compiler checks against those tokens:
 * swapping two dependencies, forgetting one, or binding a token to the wrong type fails `tsc`.
 * Everything is a singleton (the container's default scope).
 */
export class Wiring {
  constructor(
    private readonly options: ContainerModuleLoadOptions,
    private readonly bound: Set<symbol>,
  ) {}

  /** Binds `token` to what `build` makes of the resolved dependencies. */
  bind<T, const D extends readonly Dependency[]>(token: Token<T>, deps: D, build: (...deps: Resolved<D>) => NoInfer<T>): void {
    this.bound.add(token);
    // A multi-bound dependency with no binding yet resolves to `undefined` (optional): an empty list.
    const options = deps.map((d) => (isMany(d) ? { serviceIdentifier: d.many, isMultiple: true as const, optional: true as const } : d));
    const factory = (...args: unknown[]) =>
      (build as (...a: unknown[]) => T)(...args.map((a, i) => (isMany(deps[i]) ? ((a as unknown[] | undefined) ?? []) : a)));
    this.options.bind<T>(token).toResolvedValue(factory, options as never);
  }

  /** Binds `token` to a value that needs nothing else. */
  constant<T>(token: Token<T>, value: NoInfer<T>): void {
    this.bound.add(token);
    this.options.bind<T>(token).toConstantValue(value);
  }

  /** Adds a `.php` script to the ones the HTTP app serves. */
  script<const D extends readonly Dependency[]>(deps: D, build: (...deps: Resolved<D>) => Script): void {
    this.bind(Scripts, deps, build);
  }

  /** Adds a periodic housekeeping job to the ones the job runner starts. */
  job<const D extends readonly Dependency[]>(job: Omit<PeriodicJob, 'run'>, deps: D, run: (...deps: Resolved<D>) => JobRun): void {
    this.bind(Jobs, deps, (...resolved) => ({ ...job, run: run(...resolved) }));
  }

  /** Contributes this context's share of an account's data to deletion and export (docs/decisions/0093). */
  accountData<const D extends readonly Dependency[]>(deps: D, build: (...deps: Resolved<D>) => AccountDataPart): void {
    this.bind(AccountDataParts, deps, build);
  }

  /** Contributes this context's migrations; the runner merges every module's set. */
  migrations(set: PlazaMigrations): void {
    this.constant(Migrations, set);
  }
}

/** A bounded context's bindings: its repositories, services, scripts, jobs and migrations. */
export class FeatureModule extends ContainerModule {
  /** Every token the module bound, once loaded: what the wiring test resolves. */
  readonly tokens = new Set<symbol>();
}

export function featureModule(load: (wire: Wiring) => void): FeatureModule {
  const module: FeatureModule = new FeatureModule((options) => load(new Wiring(options, module.tokens)));
  return module;
}

/** Inversify cannot infer a type from a symbol; these read it from the token. */
export function resolve<T>(container: Container, token: Token<T>): T {
  return container.get<T>(token);
}

export function resolveAll<T>(container: Container, token: Token<T>): T[] {
  return container.getAll<T>(token);
}
