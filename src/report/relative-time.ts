import { formatDuration } from '../duration.js';

/** How long ago, in the largest whole unit: "45s", "2m", "3h", "5d"; "0s" for the future. */
export function ago(ms: number, now: number): string {
  return formatDuration(now - ms, 'age');
}
