/** Who is acting: the authenticated caller, as every use case receives it. */
export interface Actor {
  userId: number;
  username: string;
  isAdmin: boolean;
  isModerator: boolean;
  isTechnician: boolean;
}

export function canModerate(actor: Actor): boolean {
  return actor.isAdmin || actor.isModerator;
}
