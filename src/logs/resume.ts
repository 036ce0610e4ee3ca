/**
 * A followed stream re-opened (the same container after a dropped connection) starts at the
 * last stamp seen: the lines already printed are skipped, those after them pass.
 */
import type { LogEntry } from '../kube/pods/pod-logs.js';

export interface ResumePoint {
  /** The last stamp printed. */
  time: string;
  /** How many lines with exactly that stamp were printed. */
  count: number;
}

/** The resume point after printing `entry`. */
export function advance(point: ResumePoint | undefined, entry: LogEntry): ResumePoint | undefined {
  if (!entry.time) return point;
  if (point && point.time === entry.time) return { time: entry.time, count: point.count + 1 };
  return { time: entry.time, count: 1 };
}

/**
 * A filter for the entries of a stream re-opened with sinceTime = point.time: drops those before
 * the point and the first `count` with its stamp (already printed), passes the rest.
 */
export function skipSeen(point: ResumePoint | undefined): (entry: LogEntry) => boolean {
  if (!point) return () => true;
  const at = Date.parse(point.time);
  let same = 0;
  let passed = false;
  return (entry) => {
    if (passed || !entry.time) return true;
    if (entry.time === point.time && same < point.count) {
      same++;
      return false;
    }
    if (Date.parse(entry.time) < at) return false;
    passed = true;
    return true;
  };
}
