/**
 * Every table Plaza reads or writes. Empty here: each context's `schema.ts` adds its tables to it by
 * declaration merging, so a new context declares its tables in its own folder and edits no shared list.
 */
export interface Database {}
