import { token } from '@plaza/domain';
import { openDatabase } from '@plaza/adapters-mysql';
import { createLogger } from '@plaza/adapters-http';
import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { buildContainer } from '../container.js';
import { PLAZA_MODULES } from '../modules/index.js';
import { featureModule, many } from './feature-module.js';

class Users {
  readonly kind = 'users';
}
class Clock {
  now() {
    return 0;
  }
}
class Greeter {
  constructor(
    readonly users: Users,
    readonly clock: Clock,
  ) {}
}
/** A service in the by-name form: its constructor takes its dependencies as one object. */
class NamedGreeter {
  constructor(readonly deps: { users: Users; clock: Clock }) {}
}
const UsersToken = token<Users>('test.Users');
const ClockToken = token<Clock>('test.Clock');
const GreeterToken = token<Greeter>('test.Greeter');
const NamedGreeterToken = token<NamedGreeter>('test.NamedGreeter');

describe('typed wiring', () => {
  it('builds a binding from its resolved dependencies', () => {
    const c = new Container({ defaultScope: 'Singleton' });
    c.load(
      featureModule((w) => {
        w.constant(UsersToken, new Users());
        w.bind(ClockToken, [], () => new Clock());
        w.bind(GreeterToken, [UsersToken, ClockToken], (users, clock) => new Greeter(users, clock));
      }),
    );
    const greeter = c.get<Greeter>(GreeterToken);
    expect(greeter.users).toBeInstanceOf(Users);
    expect(greeter.clock).toBeInstanceOf(Clock);
    expect(c.get(GreeterToken)).toBe(greeter);
  });

  it('builds a binding from dependencies named once in the token map and once where they are used', () => {
    const c = new Container({ defaultScope: 'Singleton' });
    const ListenerToken = token<{ name: string }>('test.NamedListener');
    const HubToken = token<{ users: Users; names: string[] }>('test.NamedHub');
    c.load(
      featureModule((w) => {
        w.constant(UsersToken, new Users());
        w.bind(ClockToken, {}, () => new Clock());
        w.bind(NamedGreeterToken, { users: UsersToken, clock: ClockToken }, (deps) => new NamedGreeter(deps));
        w.bind(GreeterToken, { clock: ClockToken, users: UsersToken }, ({ users, clock }) => new Greeter(users, clock));
        w.bind(HubToken, { users: UsersToken, listeners: many(ListenerToken) }, ({ users, listeners }) => ({
          users,
          names: listeners.map((l) => l.name),
        }));
        w.constant(ListenerToken, { name: 'a' });
        w.job(
          { name: 'tick', everyMs: 1000 },
          { clock: ClockToken },
          ({ clock }) =>
            async () =>
              clock.now(),
        );
      }),
    );
    const named = c.get<NamedGreeter>(NamedGreeterToken);
    expect(named.deps.users).toBeInstanceOf(Users);
    expect(named.deps.clock).toBeInstanceOf(Clock);
    expect(Object.keys(named.deps).sort()).toEqual(['clock', 'users']);
    const greeter = c.get<Greeter>(GreeterToken);
    expect([greeter.users, greeter.clock]).toEqual([named.deps.users, named.deps.clock]);
    expect(c.get<{ names: string[] }>(HubToken).names).toEqual(['a']);
  });

  it('passes every binding of a multi-bound token with many(), and none as an empty list', () => {
    const ListenerToken = token<{ name: string }>('test.Listener');
    const HubToken = token<{ names: string[] }>('test.Hub');
    const EmptyHubToken = token<{ names: string[] }>('test.EmptyHub');
    const NothingToken = token<{ name: string }>('test.Nothing');
    const c = new Container({ defaultScope: 'Singleton' });
    c.load(
      featureModule((w) => {
        w.bind(HubToken, [many(ListenerToken)], (listeners) => ({ names: listeners.map((l) => l.name) }));
        w.bind(EmptyHubToken, [many(NothingToken)], (listeners) => ({ names: listeners.map((l) => l.name) }));
      }),
      featureModule((w) => w.constant(ListenerToken, { name: 'a' })),
      featureModule((w) => w.constant(ListenerToken, { name: 'b' })),
    );
    expect(c.get<{ names: string[] }>(HubToken).names).toEqual(['a', 'b']);
    expect(c.get<{ names: string[] }>(EmptyHubToken).names).toEqual([]);
  });

  it('refuses, at compile time, swapped dependencies and a wrong implementation', () => {
    // `npm run typecheck` compiles this file: each marked line must be a type error, or its unused
    // expect-error directive fails the typecheck. Registering the module is enough; nothing resolves.
    featureModule((w) => {
      // @ts-expect-error the dependencies are swapped: Clock where Users is expected
      w.bind(GreeterToken, [ClockToken, UsersToken], (users, clock) => new Greeter(users, clock));
      // @ts-expect-error a Clock bound under the Users token
      w.bind(UsersToken, [], () => new Clock());
      // @ts-expect-error a dependency is missing
      w.bind(GreeterToken, [UsersToken], (users, clock) => new Greeter(users, clock));
      // @ts-expect-error by name: a Clock under the name the service reads its Users from
      w.bind(NamedGreeterToken, { users: ClockToken, clock: ClockToken }, (deps) => new NamedGreeter(deps));
      // @ts-expect-error by name: a dependency is missing
      w.bind(NamedGreeterToken, { users: UsersToken }, (deps) => new NamedGreeter(deps));
      // @ts-expect-error by name: the builder reads a name the map does not give
      w.bind(GreeterToken, { users: UsersToken }, ({ users, clock }) => new Greeter(users, clock));
      // @ts-expect-error by name: a NamedGreeter bound under the Greeter token
      w.bind(GreeterToken, { users: UsersToken, clock: ClockToken }, (deps) => new NamedGreeter(deps));
    });
  });

  it('constructs a class from its resolved dependencies, each written once', () => {
    const c = new Container({ defaultScope: 'Singleton' });
    c.load(
      featureModule((w) => {
        w.constant(UsersToken, new Users());
        w.construct(ClockToken, Clock, []);
        w.construct(GreeterToken, Greeter, [UsersToken, ClockToken]);
      }),
    );
    const greeter = c.get<Greeter>(GreeterToken);
    expect(greeter).toBeInstanceOf(Greeter);
    expect(greeter.users).toBeInstanceOf(Users);
    expect(greeter.clock).toBe(c.get(ClockToken));
    expect(c.get(GreeterToken)).toBe(greeter);
  });

  it('refuses, at compile time, a class whose constructor the dependencies do not fit', () => {
    /** Takes anything with a kind: a supertype of `Users`. */
    class Timer {
      constructor(
        readonly users: { readonly kind: string },
        readonly clock: Clock,
      ) {}
    }
    const TimerToken = token<Timer>('test.Timer');
    featureModule((w) => {
      // A dependency may be a subtype of the parameter it fills.
      w.construct(TimerToken, Timer, [UsersToken, ClockToken]);
      // @ts-expect-error the dependencies are swapped: Clock where Users is expected
      w.construct(GreeterToken, Greeter, [ClockToken, UsersToken]);
      // @ts-expect-error a dependency is missing
      w.construct(GreeterToken, Greeter, [UsersToken]);
      // @ts-expect-error one dependency too many
      w.construct(GreeterToken, Greeter, [UsersToken, ClockToken, ClockToken]);
      // @ts-expect-error a Greeter bound under the Users token
      w.construct(UsersToken, Greeter, [UsersToken, ClockToken]);
      // @ts-expect-error a supertype where the constructor needs the class itself
      w.construct(GreeterToken, Greeter, [token<{ readonly kind: string }>('test.AnyKind'), ClockToken]);
    });
  });

  it('resolves every token that every feature module binds, on the composed container', async () => {
    const config = loadConfig({ API_DATA_DIR: '/tmp/plaza-wiring-test', LOG_LEVEL: 'silent' });
    const handle = openDatabase({ kind: 'sqlite', file: ':memory:' });
    try {
      const c = buildContainer(config, handle, createLogger({ level: 'silent' }));
      const tokens = PLAZA_MODULES.flatMap((m) => [...m.tokens]);
      expect(tokens.length).toBeGreaterThan(40);
      const unresolved = tokens.filter((t) => {
        try {
          return c.getAll(t).some((v) => v === undefined || v === null);
        } catch {
          return true;
        }
      });
      expect(unresolved.map(String)).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});
