import { RATE_LIMIT_GROUPS } from '@plaza/domain';
import { KyselyUnitOfWork } from '@plaza/adapters-mysql';
import { RecordingMailer } from '@plaza/domain/accounts/testing';
import { RecordingPushSender } from '@plaza/domain/notifications/testing';
import { loadConfig, type RunningPlaza, startPlaza } from '@plaza/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client.js';
import { clusterToolsMissing, MariaDbNodes } from '../support/mariadb-nodes.js';

/**
 * DB_READ_HOSTS (docs/decisions/0141): a primary and a replica of our own on loopback (3321, 3322;
 * MariaDB replication, never the shared server on 3306). A bio written on the replica alone shows
 * which server answered: the reads of GET operations reach the replica, except a user's own right
 * after they wrote (read-your-writes) and reads inside a unit of work; with the replica gone, reads
 * fall back to the primary.
 */
const missing = clusterToolsMissing();
const PRIMARY = 3321;
const REPLICA = 3322;
const DB = 'plaza_replicas';
const REPLICA_ONLY = 'written on the replica alone';

describe.skipIf(missing !== null)(`read replicas${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const nodes = new MariaDbNodes();
  let plaza: RunningPlaza;
  let api: ApiClient;
  let dataDir: string;
  let seq = 0;

  async function user(): Promise<{ id: number; token: string }> {
    seq += 1;
    const username = `r${seq}_${Math.random().toString(36).slice(2, 7)}`;
    const password = 'correct horse battery';
    const reg = await api.post('auth.php?action=register', { username, email: `${username}@example.test`, password });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    const login = await api.post('auth.php', { username, password });
    return { id: login.body.user_id, token: login.body.token };
  }

  /** Waits until the replica has applied everything the primary has written so far. */
  async function replicated(): Promise<void> {
    const [{ pos }] = await nodes.query<{ pos: string }>(PRIMARY, 'select @@global.gtid_binlog_pos as pos');
    const [{ waited }] = await nodes.query<{ waited: number }>(REPLICA, 'select master_gtid_wait(?, 30) as waited', [pos]);
    expect(waited).toBe(0);
  }

  const bioOf = async (who: { token: string }, id: number) => (await api.get(`users.php?id=${id}`, { token: who.token })).body.bio;

  beforeAll(async () => {
    const common = ['binlog-format=ROW', 'log-bin=mysql-bin', 'log-slave-updates=ON', 'gtid-strict-mode=ON'];
    await nodes.start('primary', PRIMARY, await nodes.dataDir('primary'), ['server-id=1', ...common]);
    await nodes.start('replica', REPLICA, await nodes.dataDir('replica'), ['server-id=2', 'relay-log=relay-bin', ...common]);
    await nodes.query(
      REPLICA,
      `change master to master_host = '127.0.0.1', master_port = ${PRIMARY}, master_user = 'root', master_password = '', master_use_gtid = slave_pos`,
    );
    await nodes.query(REPLICA, 'start slave');
    await nodes.query(PRIMARY, `create database ${DB} character set utf8mb4 collate utf8mb4_unicode_ci`);
    dataDir = mkdtempSync(join(tmpdir(), 'plaza-replicas-data-'));
    plaza = await startPlaza(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'fatal',
        BCRYPT_COST: '4',
        API_DATA_DIR: dataDir,
        API_PUBLIC_URL: 'http://plaza.test',
        API_RATE_LIMITS: RATE_LIMIT_GROUPS.map((g) => `${g}=100000`).join(','),
        API_LOGIN_ACCOUNT_LIMIT: '100000',
        DB_HOST: `127.0.0.1:${PRIMARY}`,
        DB_READ_HOSTS: `127.0.0.1:${REPLICA}`,
        DB_NAME: DB,
        DB_USER: 'root',
        DB_PASSWORD: '',
      }),
      { mailer: new RecordingMailer(), push: new RecordingPushSender(), jobs: false },
    );
    api = new ApiClient(plaza.url);
  }, 180_000);

  afterAll(async () => {
    await plaza?.close();
    await nodes.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('sends the reads of GET operations to the replica, but not a user’s own for a few seconds after they wrote, nor reads in a unit of work', async () => {
    const [owner, reader, author] = [await user(), await user(), await user()];
    const post = await api.post('posts.php', { content: 'to be liked' }, { token: author.token });
    await replicated();
    await nodes.query(REPLICA, `update ${DB}.users set bio = ? where id = ?`, [REPLICA_ONLY, owner.id]);

    // The reader has written nothing (signing up and in are anonymous): the replica answers.
    const before = plaza.database.reads.stats.replicaReads;
    expect(await bioOf(reader, owner.id)).toBe(REPLICA_ONLY);
    expect(plaza.database.reads.stats.replicaReads).toBeGreaterThan(before);

    // The owner writes (a like; nothing of their users row), then reads the primary for 5 s.
    expect((await api.post('likes.php', { post_id: post.body.post_id }, { token: owner.token })).status).toBe(200);
    expect(await bioOf(owner, owner.id)).not.toBe(REPLICA_ONLY);
    expect(await bioOf(reader, owner.id)).toBe(REPLICA_ONLY);
    await new Promise((r) => setTimeout(r, 5_200));
    expect(await bioOf(owner, owner.id)).toBe(REPLICA_ONLY);

    // Inside a unit of work, a read of a GET operation is the primary's, outside it the replica's.
    const db = plaza.database.db;
    const uow = new KyselyUnitOfWork(db);
    const read = () => db.selectFrom('users').select('bio').where('id', '=', owner.id).executeTakeFirstOrThrow();
    const [inside, outside] = await plaza.database.reads.run({ method: 'GET', userId: null }, async () => [
      await uow.run(read),
      await read(),
    ]);
    expect(inside.bio).not.toBe(REPLICA_ONLY);
    expect(outside.bio).toBe(REPLICA_ONLY);
    // Writes never go to the replica: the like is on the primary.
    expect(await nodes.query(PRIMARY, `select user_id from ${DB}.post_reactions where post_id = ?`, [post.body.post_id])).toHaveLength(1);
  });

  it('with the replica gone, the reads go to the primary', async () => {
    const [owner, reader] = [await user(), await user()];
    await nodes.stop('replica', 'SIGKILL');
    const res = await api.get(`users.php?id=${owner.id}`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.id ?? res.body.user?.id ?? owner.id).toBe(owner.id);
    expect((await api.get('/health/ready')).status).toBe(200);
  });
});
