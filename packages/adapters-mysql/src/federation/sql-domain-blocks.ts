import type { Kysely } from 'kysely';
import type { DomainBlock, DomainBlockRepository, DomainBlockSeverity } from '@plaza/domain/federation';
import type { Database } from '../database.js';
import { insertIfAbsent } from '../dialect.js';
import type { DomainBlocksTable } from './schema.js';

const block = (r: DomainBlocksTable): DomainBlock => ({ ...r, severity: r.severity as DomainBlockSeverity });

export class SqlDomainBlockRepository implements DomainBlockRepository {
  constructor(private readonly db: Kysely<Database>) {}

  add(b: DomainBlock): Promise<boolean> {
    // The domain is the primary key: of concurrent blocks of one domain, one insert stores it.
    return insertIfAbsent(this.db, 'domain_blocks', { ...b });
  }

  async remove(domain: string): Promise<DomainBlock | null> {
    const row = await this.db.selectFrom('domain_blocks').selectAll().where('domain', '=', domain).executeTakeFirst();
    if (!row) return null;
    const r = await this.db.deleteFrom('domain_blocks').where('domain', '=', domain).executeTakeFirst();
    // Of two concurrent removals only the one that deleted the row reports it.
    return Number(r.numDeletedRows) > 0 ? block(row) : null;
  }

  async all(): Promise<DomainBlock[]> {
    return (await this.db.selectFrom('domain_blocks').selectAll().orderBy('domain').execute()).map(block);
  }
}

/**
 * The known actors (remote_actors) on the domain or its subdomains, as a sub-select of actor URLs.
 * `remote_actors.domain` is the actor URL's host with its port when it has one. The domain is a
 * validated host name (letters, digits, dots and hyphens: nothing LIKE would read as a wildcard).
 */
export function actorsOnDomain(db: Kysely<Database>, domain: string) {
  return db
    .selectFrom('remote_actors')
    .select('actor_url')
    .where((eb) =>
      eb.or([
        eb('domain', '=', domain),
        eb('domain', 'like', `${domain}:%`),
        eb('domain', 'like', `%.${domain}`),
        eb('domain', 'like', `%.${domain}:%`),
      ]),
    );
}
