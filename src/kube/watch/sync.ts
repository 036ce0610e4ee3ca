/** A collection fleetdeck lists and watches: loaded yet, or forbidden (naming the missing permission). */
export interface Sync {
  synced: boolean;
  /** e.g. "cannot list pods: HTTP 403: … (needs list/watch on pods)". */
  forbidden?: string;
}
