/** Puts a fake's state back as it was when the snapshot was taken. */
export type Restore = () => void;

/** A fake whose state can be captured and put back: what the in-memory unit of work needs of its participants. */
export interface Snapshottable {
  snapshot(): Restore;
}

type Container = unknown[] | Map<unknown, unknown> | Set<unknown>;

/**
 * Deep copies of these containers (the rows of a fake), put back into the same objects by the returned
 * function: tests and other fakes holding a reference to an array or map keep seeing the live one.
 * Plain fields (id counters) are the caller's to save next to it.
 */
export function captureState(...containers: Container[]): Restore {
  const copies = containers.map((c) => structuredClone(c));
  return () => containers.forEach((c, i) => putBack(c, copies[i]));
}

function putBack(target: Container, copy: Container): void {
  if (Array.isArray(target)) {
    target.splice(0, target.length, ...(copy as unknown[]));
  } else if (target instanceof Map) {
    target.clear();
    for (const [k, v] of copy as Map<unknown, unknown>) target.set(k, v);
  } else {
    target.clear();
    for (const v of copy as Set<unknown>) target.add(v);
  }
}
