/**
 * The install wizard over fakes of its workflows: the install feed started with them (its
 * checks and steps go to the store's install slice as they do in the dashboard), and the wizard
 * as `fleetdeck install` shows it on its own, with its key line.
 */
import { vi } from 'vitest';
import type { CheckItem } from '../../../src/checklist/checklist.js';
import { GateProvider } from '../../../src/components/key-actions/index.js';
import { UiProvider } from '../../../src/components/theme/index.js';
import { writeGate } from '../../../src/kube/transport/gate.js';
import { gateView } from '../../../src/dashboard/gate-view.js';
import { type InstallFeedOptions, type InstallWork, startInstallFeed } from '../../../src/feeds/install/feed.js';
import type { HeldActions } from '../../../src/feeds/feed.js';
import { StandaloneWizard } from '../../../src/screens/install/standalone.js';
import type { Session } from '../../../src/session/session.js';
import { createFleetStore, type FleetStore } from '../../../src/store/fleet-store.js';
import type { InstallChoices } from '../../../src/store/install.js';
import { KEYS, type Screen } from './screen.js';

export const ok = (id: string, label: string): CheckItem => ({ id, label, state: 'ok', detail: 'fine' });

export interface InstallCalls {
  checks: InstallChoices[];
  installs: InstallChoices[];
}

/**
 * Workflows on three contexts: the checks report a running row then a warning; the install a
 * running row then two done. The plan names no bundle unless `over.plan` does.
 */
export function fakeInstallWork(over: Partial<InstallWork> = {}, contexts = ['kind-cp', 'kind-workload-1', 'kind-workload-2']) {
  const calls: InstallCalls = { checks: [], installs: [] };
  const work: InstallWork = {
    setup: () => ({ contexts, kubeconfigPath: '/home/me/.config/fleetdeck/nova.kubeconfig', userKubeconfig: '/home/me/.kube/config' }),
    plan: () => {
      throw new Error('no bundle in this test');
    },
    checks: async (_c, onProgress) => {
      onProgress([{ id: 'reach', label: 'Hosting reachable', state: 'running' }]);
      return {
        items: [
          ok('reach', 'Hosting reachable'),
          { id: 'ver', label: 'Version', state: 'warn', detail: 'v1.20.2', hint: 'supported: 1.25–1.28' },
        ],
        blocking: false,
        warnings: true,
      };
    },
    install: async (_c, onProgress) => {
      onProgress([{ id: 'namespace', label: 'Namespace', state: 'running' }]);
      return { ok: true, steps: [ok('namespace', 'Namespace'), ok('fleet', 'Fleet recorded and verified')] };
    },
    ...over,
  };
  // Every call recorded, whichever function answers it.
  const recorded: InstallWork = {
    ...work,
    checks: (c, p) => {
      calls.checks.push(c);
      return work.checks(c, p);
    },
    install: (c, p, s) => {
      calls.installs.push(c);
      return work.install(c, p, s);
    },
  };
  return { work: recorded, calls };
}

/** A session of no cluster with the write gate of --read-only or not: for workflows that are fakes. */
export function gatedSession(readOnly: boolean): Session {
  const gate = writeGate(readOnly);
  return { readOnly, assertWritable: gate.assertWritable } as unknown as Session;
}

/** The install feed over `work`, on a store of its own (or `store`), in a read-only session or not. */
export function installFeedOver(
  work: InstallWork,
  o: Omit<InstallFeedOptions, 'work'> = {},
  store: FleetStore = createFleetStore([]),
  readOnly = false,
) {
  const feed: HeldActions<'install', 'stop'> = startInstallFeed(store, gatedSession(readOnly), { ...o, work: () => work });
  return { store, feed };
}

export interface WizardOptions {
  work?: Partial<InstallWork>;
  initial?: Partial<InstallChoices>;
  readOnly?: boolean;
  /** Rows of the wizard with its key line (default 24). */
  height?: number;
}

/** The wizard on its own, as `fleetdeck install` shows it, over fake workflows; opened. */
export function wizard(o: WizardOptions = {}) {
  const { work, calls } = fakeInstallWork(o.work);
  const { store, feed } = installFeedOver(work, o.initial ? { initial: o.initial } : {}, undefined, o.readOnly === true);
  feed.open();
  const onExit = vi.fn();
  const el = (
    <UiProvider value={{ ascii: false, color: false }}>
      <GateProvider gate={gateView(writeGate(o.readOnly === true))}>
        <StandaloneWizard store={store} actions={feed} width={79} height={o.height ?? 24} onExit={onExit} />
      </GateProvider>
    </UiProvider>
  );
  return { el, calls, store, onExit };
}

/** The pages before the checks when the hosting cluster is given and no workload is picked. */
export const TO_CHECKS = [
  'Hosting cluster',
  'Namespace of the control plane',
  'Workload clusters',
  'High availability',
  'Topology key',
  'Certificate validity',
];

/** Enter on each page up to the checks, each once it shows. */
export async function goToChecks(screen: Screen): Promise<void> {
  for (const title of TO_CHECKS) {
    await screen.waitFor(title);
    await screen.press(KEYS.enter);
  }
}
