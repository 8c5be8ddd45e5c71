import type { Actor } from '../shared/actor.js';
import { Conflict, Forbidden, NotFound } from '../shared/errors.js';
import type { PageRequest } from '../shared/pagination.js';
import type { RosterUser } from './model.js';
import type { AdminRoster } from './ports.js';

function assertAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new Forbidden('The technicians tab is reserved to administrators', 'not_admin');
}

/** admin.php?tab=technicians: administrators list accounts and give or withdraw `is_admin`. */
export class AdminRoleService {
  constructor(private readonly roster: AdminRoster) {}

  async list(actor: Actor, query: string | null, page: PageRequest): Promise<{ items: RosterUser[]; more: boolean }> {
    assertAdmin(actor);
    const q = query?.trim() || null;
    return this.roster.search(q ? q.slice(0, 191) : null, page);
  }

  async promote(actor: Actor, userId: number): Promise<void> {
    assertAdmin(actor);
    if (!(await this.roster.promote(userId))) {
      throw new Conflict('This account does not exist or already is an administrator', 'not_promoted');
    }
  }

  /** The last administrator cannot withdraw themselves (decided under lock, so two cannot both leave). */
  async withdraw(actor: Actor, userId: number): Promise<void> {
    assertAdmin(actor);
    const outcome = await this.roster.withdraw(userId, actor.userId);
    if (outcome === 'not_allowed') throw new Forbidden('You are no longer an administrator', 'not_admin');
    if (outcome === 'not_admin') throw new NotFound('This account is not an administrator', 'not_an_admin');
    if (outcome === 'last_admin') throw new Conflict('The last administrator cannot withdraw: promote someone else first', 'last_admin');
  }
}
