import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

/** DB_HOST as a list of cluster nodes, and DB_READ_HOSTS (docs/decisions/0141). */
describe('database nodes', () => {
  it('takes one host as before: one node, on DB_PORT, and no replica', () => {
    expect(loadConfig({ DB_HOST: 'db', DB_PORT: '3307' }).database).toMatchObject({
      kind: 'mysql',
      host: 'db',
      port: 3307,
      nodes: [{ host: 'db', port: 3307 }],
      readNodes: [],
    });
  });

  it('takes the nodes of a cluster in order, each with its port or DB_PORT, and the replicas the same way', () => {
    const c = loadConfig({ DB_HOST: '127.0.0.1:3311, db2,[::1]:3313', DB_PORT: '3310', DB_READ_HOSTS: 'replica:3320,10.0.0.9' });
    expect(c.database).toMatchObject({
      host: '127.0.0.1',
      port: 3311,
      nodes: [
        { host: '127.0.0.1', port: 3311 },
        { host: 'db2', port: 3310 },
        { host: '::1', port: 3313 },
      ],
      readNodes: [
        { host: 'replica', port: 3320 },
        { host: '10.0.0.9', port: 3310 },
      ],
    });
  });

  it.each([
    ['DB_HOST', 'db1:3306,db 2', '"db 2"'],
    ['DB_HOST', 'db1:99999', '"db1:99999"'],
    ['DB_HOST', 'db1:', '"db1:"'],
    ['DB_READ_HOSTS', 'replica:3306,-bad-', '"-bad-"'],
  ])('refuses %s=%s naming the bad entry', (name, value, entry) => {
    expect(() => loadConfig({ DB_HOST: 'db', [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} .*${entry}`));
  });
});
