import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';

export interface QueryCounter {
  executed: number;
}

/**
 * Counts every statement run through `dialect` in `counter`: one increment per statement, so that a
 * test can assert how many queries a request costs (test/e2e/query-count.test.ts) whatever its page
 * size. Connections are patched once, when first handed out, as `withDomainConstraintErrors` does.
 */
export function countingQueries(dialect: Dialect, counter: QueryCounter): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      const driver = dialect.createDriver();
      const patched = new WeakSet<DatabaseConnection>();
      const acquireConnection = async () => {
        const connection = await driver.acquireConnection();
        if (!patched.has(connection)) {
          const execute = connection.executeQuery.bind(connection);
          connection.executeQuery = <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
            counter.executed += 1;
            return execute<R>(query);
          };
          patched.add(connection);
        }
        return connection;
      };
      return new Proxy(driver, {
        get(target, prop) {
          if (prop === 'acquireConnection') return acquireConnection;
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) satisfies Driver;
    },
  };
}
