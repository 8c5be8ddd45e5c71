import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    mysqlUrl: string | null;
  }
}

/**
 * With PLAZA_TEST_DB=mysql every suite runs on MySQL/MariaDB: TEST_MYSQL_URL if set, else a
 * testcontainers MySQL when a container runtime exists. Without either, the run fails loudly rather
 * than silently testing SQLite again.
 */
export default async function setup(project: TestProject) {
  if (process.env.PLAZA_TEST_DB !== 'mysql') {
    project.provide('mysqlUrl', null);
    return;
  }
  if (process.env.TEST_MYSQL_URL) {
    project.provide('mysqlUrl', process.env.TEST_MYSQL_URL);
    return;
  }
  const { MySqlContainer } = await import('@testcontainers/mysql');
  let container;
  try {
    container = await new MySqlContainer('mysql:8.4').withRootPassword('root').start();
  } catch (error) {
    throw new Error(
      `PLAZA_TEST_DB=mysql but TEST_MYSQL_URL is not set and no container runtime is available (${(error as Error).message}). ` +
        'Set TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/ to use a local server.',
    );
  }
  project.provide('mysqlUrl', `mysql://root:root@${container.getHost()}:${container.getPort()}/`);
  return async () => {
    await container.stop();
  };
}
