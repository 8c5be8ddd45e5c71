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

/**
 * An authenticated request: its actor and, when the token lookup could tell in the same read, whether
 * a ban is in force for the account (`banned`). Admission then costs no query for the accounts that
 * are not banned, nearly all of them; `undefined` means the lookup could not tell, and admission asks
 * the moderation context as it always does.
 */
export interface Session {
  actor: Actor;
  banned?: boolean;
}

export function canModerate(actor: Actor): boolean {
  return actor.isModerator;
}
