import type { Timestamp } from '../shared/time.js';

export const MAX_EVENT_TITLE = 255;
export const MAX_EVENT_DESCRIPTION = 5000;
export const MAX_EVENT_LOCATION = 255;

export interface NewEvent {
  creator_id: number;
  title: string;
  description: string;
  location: string;
  /** The wall-clock time of the event where it happens, `YYYY-MM-DD HH:MM:SS`, as the organiser gave it (docs/decisions/0037). */
  event_date: string;
  /** `uploads/events/event_….jpg`, or null. */
  image: string | null;
  created_at: Timestamp;
}

export interface EventRecord extends NewEvent {
  id: number;
  participants_count: number;
}
