/**
 * Who is acting: the authenticated caller, as every use case receives it. The role flags are the
 * account's roles after the hierarchy of `rolesOf` (accounts/user.ts), built by `actorOf`: an admin
 * has `isModerator` and `isTechnician` set too, so checks read the one flag they need.
 */
export interface Actor {
  userId: number;
  username: string;
  isAdmin: boolean;
  isModerator: boolean;
  isTechnician: boolean;
}

export function canModerate(actor: Actor): boolean {
  return actor.isModerator;
}
