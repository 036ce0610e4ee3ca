/**
 * "Renew certificates" on the Day 2 page: every leaf certificate of the control plane re-issued by
 * its CA, as `fleetdeck certs renew all`. Plan: the command's plan text; the run's rows are the
 * command's rows (Secrets, one replica at a time, kubeconfigs, agents).
 */
import path from 'node:path';
import type { Day2Operation, Day2Target } from '../operation.js';
import { fleetOf, fleetTargetsOf } from '../fleet-of.js';
import { runWithRows } from '../run-rows.js';
import { planRenew } from './plan.js';
import { planLines } from './plan-lines.js';
import { runRenew } from './run.js';
import type { RenewTarget } from './target.js';

const ALL = ['all'];

function renewTarget(target: Day2Target): RenewTarget {
  const fleet = fleetOf(target, 'Renewing certificates');
  return {
    ...fleetTargetsOf(target, 'Renewing certificates'),
    kubeconfigPath: path.join(path.dirname(fleet.fleetFile), `${target.context}.kubeconfig`),
  };
}

export function renewOperation(): Day2Operation {
  return {
    id: 'renew',
    label: 'Renew certificates',
    writes: { action: 'certs renew changes the control plane' },
    inputs: () => [],
    async plan(target) {
      const plan = await planRenew(renewTarget(target), ALL);
      return { todo: plan.certs.length > 0, lines: planLines(plan) };
    },
    run(target, _inputs, onProgress, signal) {
      const t = renewTarget(target);
      return runWithRows(onProgress, async (runner) => {
        const result = await runRenew(t, ALL, runner, signal);
        if (!result.ok) throw new Error('the renewal stopped: run it again to finish it');
        return `Renewed ${result.certs.length} certificates; the API answered through the load balancer between restarts`;
      });
    },
  };
}
