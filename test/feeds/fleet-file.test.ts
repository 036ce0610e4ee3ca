import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFeeds } from '../../src/feeds/feeds.js';
import { followFiles } from '../../src/feeds/fleet-file.js';
import { statusFeed } from '../../src/feeds/status-feed.js';
import type { FleetConfig } from '../../src/kube/fleet/fleet.js';
import type { Session } from '../../src/session/session.js';
import { createFleetStore } from '../../src/store/fleet-store.js';

const dirs: string[] = [];
/** Generous: a loaded machine polls late. */
const WAIT = { timeout: 15_000 };
const tmpFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-file-'));
  dirs.push(dir);
  return path.join(dir, 'fleetdeck', 'fleet.yaml');
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A session with no context to watch (no status feed started). */
const session = (fleet?: FleetConfig) =>
  ({ contexts: [], files: [], kc: () => ({}) as KubeConfig, ...(fleet ? { fleet } : {}) }) as unknown as Session;
const FLEET = { hostingContext: 'kind-cp', controlPlaneContext: 'nova', namespace: 'elotl', workloads: [] } as unknown as FleetConfig;

// The dashboard's own poll interval (2 s) for the feeds holder's tests: a few polls each.
describe('following the fleet file', { timeout: 60_000 }, () => {
  it('reports the file appearing (its directory too), changing and going away', async () => {
    const file = tmpFile();
    let changes = 0;
    const stop = followFiles(
      () => [file],
      () => changes++,
      20,
    );
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'hostingContext: a\n');
    await vi.waitFor(() => expect(changes).toBe(1), WAIT);
    fs.writeFileSync(file, 'hostingContext: bb\n');
    await vi.waitFor(() => expect(changes).toBe(2), WAIT);
    fs.rmSync(file);
    await vi.waitFor(() => expect(changes).toBe(3), WAIT);
    stop();
    fs.writeFileSync(file, 'hostingContext: c\n');
    // Stopped: a later change is not reported (a change still pending would have come by now).
    const seen = changes;
    let probe = 0;
    const other = followFiles(
      () => [file],
      () => probe++,
      20,
    );
    fs.writeFileSync(file, 'hostingContext: cc\n');
    await vi.waitFor(() => expect(probe).toBe(1), WAIT);
    other();
    expect(changes).toBe(seen);
  });

  it('the dashboard’s feeds re-point at the fleet an install elsewhere wrote, and back when it is removed', async () => {
    const file = tmpFile();
    const store = createFleetStore([]);
    let fleetInFile: FleetConfig | undefined;
    const feeds = createFeeds(store, session(), [statusFeed()], { fleetFile: file, reopen: () => session(fleetInFile) });
    fleetInFile = FLEET;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'written by an install\n');
    await vi.waitFor(() => expect(store.getState().fleet).toEqual(FLEET), WAIT);
    expect(store.getState().banner?.text).toMatch(/fleet file changed: watching the fleet hosted in kind-cp/);
    expect(feeds.session().fleet).toEqual(FLEET);

    fleetInFile = undefined;
    fs.rmSync(file);
    await vi.waitFor(() => expect(store.getState().fleet).toBeUndefined(), WAIT);
    expect(store.getState().banner?.text).toMatch(/no longer defines a fleet/);
    await feeds.stop();
  });

  it('a kubeconfig file that changes (a CA rotation’s new trust bundle) is read again: every feed re-pointed', async () => {
    const file = tmpFile();
    const kubeconfig = path.join(path.dirname(path.dirname(file)), 'nova.kubeconfig');
    fs.writeFileSync(kubeconfig, 'certificate-authority-data: old+new\n', { mode: 0o600 });
    const store = createFleetStore([]);
    let reads = 0;
    const withFile = () => {
      reads++;
      return { ...session(FLEET), files: [kubeconfig] } as Session;
    };
    const feeds = createFeeds(store, withFile(), [statusFeed()], { fleetFile: file, reopen: withFile });
    fs.writeFileSync(kubeconfig, 'certificate-authority-data: new, and longer\n');
    await vi.waitFor(() => expect(store.getState().banner?.text).toBe(`${kubeconfig} changed: its contexts read again`), WAIT);
    expect(reads).toBe(2);
    expect(feeds.session().files).toEqual([kubeconfig]);
    await feeds.stop();
  });

  it('a fleet file that cannot be read is said in the banner; the session stays', async () => {
    const file = tmpFile();
    const store = createFleetStore([]);
    const feeds = createFeeds(store, session(FLEET), [statusFeed()], {
      fleetFile: file,
      reopen: () => {
        throw new Error(`${file} line 1: hostingContext must be a string; fix the fleet file or pass --hosting-context`);
      },
    });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'hostingContext: [\n');
    await vi.waitFor(() => expect(store.getState().banner?.kind).toBe('error'), WAIT);
    expect(store.getState().banner?.text).toContain('fix the fleet file');
    expect(feeds.session().fleet).toEqual(FLEET);
    await feeds.stop();
  });
});
