import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { EventRecord, NewEvent } from './model.js';

export interface Paged<T> {
  items: T[];
  total: number;
}

/** Events, their participants and the invitations sent for them. */
export interface EventRepository {
  /** Takes the event's write lock until the unit of work ends (a no-op outside one). */
  lock(id: number): Promise<void>;
  /** Stores the event with its organiser as its first participant. */
  create(event: NewEvent): Promise<EventRecord>;
  findById(id: number): Promise<EventRecord | null>;
  /** Events on or after `from` (an event_date), soonest first. */
  upcoming(from: string, page: PageRequest): Promise<Paged<EventRecord>>;
  /** Which of these events the user takes part in. */
  participatingIn(userId: number, eventIds: number[]): Promise<Set<number>>;
  /** Joins once; true when this call added the participant (participants_count moves with it). */
  join(eventId: number, userId: number, at: Timestamp): Promise<boolean>;
  /** True when this call removed the participant. */
  leave(eventId: number, userId: number): Promise<boolean>;
  /** Records an invitation once; true when this call recorded it. */
  invite(eventId: number, userId: number, invitedBy: number, at: Timestamp): Promise<boolean>;
  /** Deletes the event with its participants and invitations. */
  delete(id: number): Promise<void>;
}
export const EventRepository = token<EventRepository>('EventRepository');
