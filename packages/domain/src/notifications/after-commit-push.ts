import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { PushMessage, PushSender } from './ports.js';

/**
 * Pushes leave once the write that raised them has committed: none for a write that was undone, one
 * for a write run again after a deadlock. Outside a unit of work they leave at once. Outermost in
 * front of every push, so the preference gate also reads what the write committed.
 */
export class AfterCommitPushSender implements PushSender {
  constructor(
    private readonly inner: PushSender,
    private readonly uow: UnitOfWork,
  ) {}

  send(userId: number, message: PushMessage): Promise<void> {
    return this.uow.afterCommit(() => this.inner.send(userId, message));
  }
}
