/**
 * A Day 2 feed over fake operations for tests that visit every screen: "Back up now" and
 * "Restore from a file" (each asks for a file, then plans and runs at once), one operation absent
 * from the build. The control plane's facts are read from an address nothing answers.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { type Day2Operation, notAvailable } from '../../../src/day2/operation.js';
import type { Day2Registry } from '../../../src/day2/registry.js';
import { startDay2Feed } from '../../../src/feeds/day2.js';
import type { HeldActions } from '../../../src/feeds/feed.js';
import type { Session } from '../../../src/session/session.js';
import type { FleetStore } from '../../../src/store/fleet-store.js';
import { NOVA_FLEET } from '../screens/fleets.js';

/** A session whose control plane `nova` is at an address nothing answers, with the Nova fleet. */
export function day2Session(): Session {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'nova', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'admin' }],
    contexts: [{ name: 'nova', cluster: 'nova', user: 'admin' }],
    currentContext: 'nova',
  });
  return { config, contexts: [], fleet: NOVA_FLEET, readOnly: false, kc: () => config } as unknown as Session;
}

function fileOperation(id: string, label: string): Day2Operation {
  return {
    id,
    label,
    inputs: () => [{ key: 'file', label: 'Backup file', default: `/backups/${id}.yaml` }],
    plan: async (target, inputs) => ({ todo: true, lines: [`${label} of context ${target.context} with ${inputs.file}`] }),
    run: async () => ({ ok: true, steps: [{ id: 'done', label: 'Done', state: 'ok', detail: 'done' }], summary: `${label}: done` }),
  };
}

export function fakeDay2Feed(store: FleetStore): HeldActions<'day2'> {
  const registry: Day2Registry = {
    operations: [
      fileOperation('backup', 'Back up now'),
      fileOperation('restore', 'Restore from a file'),
      notAvailable('renew', 'Renew certificates'),
    ],
    lastBackup: () => undefined,
  };
  return startDay2Feed(store, day2Session, { registry: () => registry });
}
