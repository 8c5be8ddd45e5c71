import type { Generated } from 'kysely';

export interface EventsTable {
  id: Generated<number>;
  creator_id: number;
  title: string;
  description: string;
  location: string;
  /** The event's wall-clock time, `YYYY-MM-DD HH:MM:SS`, as given. */
  event_date: string;
  image: string | null;
  participants_count: Generated<number>;
  created_at: string;
}

export interface EventParticipantsTable {
  event_id: number;
  user_id: number;
  created_at: string;
}

export interface EventInvitesTable {
  event_id: number;
  user_id: number;
  invited_by: number;
  created_at: string;
}

export interface EventsTables {
  events: EventsTable;
  event_participants: EventParticipantsTable;
  event_invites: EventInvitesTable;
}

declare module '../database.js' {
  interface Database extends EventsTables {}
}
