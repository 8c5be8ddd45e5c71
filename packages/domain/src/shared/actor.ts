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
  /**
   * How the account appears beside what it writes, when the token lookup read it with the session:
   * what it writes is then answered without reading the account again. Absent for actors built
   * otherwise (the command line, tests); readers fall back to reading the account.
   */
  card?: ActorCard;
}

/** The account's public card as stored: picture, badge, privacy, and its role flags before the hierarchy. */
export interface ActorCard {
  avatar: string | null;
  militant_badge: string | null;
  is_private: boolean;
  is_admin: boolean;
  is_moderator: boolean;
  is_technician: boolean;
}

/**
 * An authenticated request: its actor and, when the token lookup could tell in the same read, whether
 * a ban is in force for the account (`banned`) and whether it is suspended (`suspended`, docs/decisions/0105).
 * Admission then costs no query for the accounts that are neither, nearly all of them; `undefined`
 * means the lookup could not tell, and admission asks the moderation context as it always does.
 */
export interface Session {
  actor: Actor;
  banned?: boolean;
  suspended?: boolean;
}

export function canModerate(actor: Actor): boolean {
  return actor.isModerator;
}
