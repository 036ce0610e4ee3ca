/**
 * The fleet file and the kubeconfig files, followed while the dashboard runs: an install, an uninstall or an edit made in
 * another terminal (or by a colleague on the same bastion) changes which fleet is watched without
 * restarting the dashboard. The file is polled by its stat (it may not exist yet, and editors
 * replace it rather than write it in place), which costs one stat call per interval and shares
 * nothing with other watchers of the same path.
 */
import fs from 'node:fs';
import type { Session } from '../session/session.js';
import { setBanner, type FleetStore } from '../store/fleet-store.js';

export const FLEET_FILE_POLL_MS = 2_000;
/** How long the notice that a file changed stays on the bottom line. */
export const NOTICE_MS = 15_000;

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
 * Calls `changed` with the files that appeared, changed or went away among `files()` (asked at
 * each poll: the list may change); returns the stop. Each file as it is when first seen is its
 * baseline (the first ones read at once, so a change right after counts).
 */
export function followFiles(
  files: () => readonly string[],
  changed: (which: string[]) => void,
  intervalMs = FLEET_FILE_POLL_MS,
): () => void {
  const last = new Map<string, string | undefined>();
  const look = (report: boolean) => {
    const which: string[] = [];
    const now = new Set(files());
    for (const f of now) {
      const sig = signature(f);
      if (last.has(f) && last.get(f) !== sig) which.push(f);
      last.set(f, sig);
    }
    for (const f of [...last.keys()]) if (!now.has(f)) last.delete(f);
    if (report && which.length > 0) changed(which);
  };
  look(false);
  const timer = setInterval(() => look(true), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export interface SessionFleetOptions {
  store: FleetStore;
  /** The session as the fleet file (and the flags) say now; throws a UserError for a bad file. */
  /** The session as its files say now (the current one read again). */
  reopen: () => Session;
  session: () => Session;
  setSession: (next: Session) => Promise<void>;
}

/**
 * Follows the fleet file and the session's kubeconfig files for the feeds holder. When the fleet
 * the file defines is another than the one watched, every feed is re-pointed at it. When a
 * kubeconfig file changed (a CA rotation's new trust bundle, a refreshed token, a context added),
 * the session is read again and every feed re-pointed, as kubectl reads the file on each run. The
 * banner says which; a file that cannot be read is said in the banner and the session stays.
 */
export function followSessionFleet(file: string, o: SessionFleetOptions, intervalMs = FLEET_FILE_POLL_MS): () => void {
  const changed = async (which: string[]) => {
    try {
      const next = o.reopen();
      // The fleet as the file defines it: its problems (a kubeconfig's context now another cluster) are the checklist's to say.
      const defined = (f: Session['fleet']) => JSON.stringify(f && { ...f, problems: undefined });
      const fleetChanged = defined(next.fleet) !== defined(o.session().fleet);
      const kubeconfigs = which.filter((f) => f !== file);
      if (!fleetChanged && kubeconfigs.length === 0) return;
      await o.setSession(next);
      const text = fleetChanged
        ? next.fleet
          ? `the fleet file changed: watching the fleet ${next.fleet.name ? `${next.fleet.name}, ` : ''}hosted in ${next.fleet.hostingContext}`
          : 'the fleet file no longer defines a fleet: watching the contexts'
        : `${kubeconfigs.join(', ')} changed: its contexts read again`;
      setBanner(o.store, { kind: 'info', text }, NOTICE_MS);
    } catch (err) {
      setBanner(o.store, { kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  };
  return followFiles(
    () => [file, ...o.session().files],
    (which) => void changed(which),
    intervalMs,
  );
}
