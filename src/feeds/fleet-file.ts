/**
 * The fleet file, followed while the dashboard runs: an install, an uninstall or an edit made in
 * another terminal (or by a colleague on the same bastion) changes which fleet is watched without
 * restarting the dashboard. The file is polled by its stat (it may not exist yet, and editors
 * replace it rather than write it in place), which costs one stat call per interval and shares
 * nothing with other watchers of the same path.
 */
import fs from 'node:fs';
import type { Session } from '../session/session.js';
import { setBanner, type FleetStore } from '../store/fleet-store.js';

export const FLEET_FILE_POLL_MS = 2_000;

/** What tells one version of the file from another (undefined: no file). */
function signature(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * Calls `changed` after the file at `file` appears, changes or goes away; returns the stop. The
 * file as it is when called is the baseline (read at once, so a change right after counts).
 */
export function followFleetFile(file: string, changed: () => void, intervalMs = FLEET_FILE_POLL_MS): () => void {
  let last = signature(file);
  const timer = setInterval(() => {
    const now = signature(file);
    if (now === last) return;
    last = now;
    changed();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export interface SessionFleetOptions {
  store: FleetStore;
  /** The session as the fleet file (and the flags) say now; throws a UserError for a bad file. */
  reopen: (kubeconfig: string | undefined) => Session;
  session: () => Session;
  setSession: (next: Session) => Promise<void>;
}

/**
 * Follows the fleet file for the feeds holder: when the fleet it defines is another than the one
 * watched, every feed is re-pointed at it, and the banner says so; a file that cannot be read is
 * said in the banner and the session stays.
 */
export function followSessionFleet(file: string, o: SessionFleetOptions, intervalMs = FLEET_FILE_POLL_MS): () => void {
  const changed = async () => {
    try {
      const next = o.reopen(o.store.getState().kubeconfigFiles?.[0]);
      if (JSON.stringify(next.fleet) === JSON.stringify(o.session().fleet)) return;
      await o.setSession(next);
      const text = next.fleet
        ? `the fleet file changed: watching the fleet hosted in ${next.fleet.hostingContext}`
        : 'the fleet file no longer defines a fleet: watching the contexts';
      setBanner(o.store, { kind: 'info', text });
    } catch (err) {
      setBanner(o.store, { kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  };
  return followFleetFile(file, () => void changed(), intervalMs);
}
