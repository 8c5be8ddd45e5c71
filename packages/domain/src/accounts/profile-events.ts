import { token } from '../shared/token.js';
import type { EditableProfileField, UserRecord } from './user.js';

/**
 * Told of each profile edit, after it is stored, with the account as it now is and the fields the
 * edit named (federation sends `Update(Person)` when the actor document changes, docs/decisions/0050).
 */
export interface ProfileEventListener {
  profileEdited(user: UserRecord, fields: readonly EditableProfileField[]): Promise<void>;
  /**
   * The account turned private or public (user_preferences.php `privacy_private_account`), told inside
   * the change's unit of work with the account as it now is: federation's actor document shows it as
   * `manuallyApprovesFollowers`, so remote servers get `Update(Person)`.
   */
  visibilityChanged(user: UserRecord): Promise<void>;
}
/** Multi-bound: a module that cares about profile edits adds its listener. */
export const ProfileEventListeners = token<ProfileEventListener>('accounts.ProfileEventListeners');
