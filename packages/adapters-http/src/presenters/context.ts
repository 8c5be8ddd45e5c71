import type { TimeFormatter } from '../http/time-format.js';

/** What presenters need besides the data: how to write times for this instance. */
export interface PresenterContext {
  formatTime: TimeFormatter;
}
