/** The sandbox's Prometheus and Alertmanager as `sandbox status` reports them. */
import type { MonitoringHealth, MonitoringProcessHealth } from './health.js';
import { isOurs, type MonitoringProcess, type MonitoringRecord } from './state.js';

async function processHealth(p: MonitoringProcess, dir: string): Promise<MonitoringProcessHealth> {
  if (!isOurs(p.pid, dir)) return { url: p.url, state: 'down' };
  try {
    const res = await fetch(`${p.url}/-/ready`, { signal: AbortSignal.timeout(2000) });
    return { url: p.url, state: res.ok ? 'ready' : 'not ready' };
  } catch {
    return { url: p.url, state: 'not ready' };
  }
}

/** Both processes checked (alive, ours, answering `/-/ready`); `problem` when one is not ready. `dirFlag`: ` --dir DIR` or ''. */
export async function monitoringHealth(record: MonitoringRecord, dir: string, dirFlag: string): Promise<MonitoringHealth> {
  const [prometheus, alertmanager] = await Promise.all([processHealth(record.prometheus, dir), processHealth(record.alertmanager, dir)]);
  const bad = (
    [
      ['Prometheus', prometheus, record.prometheus.log],
      ['Alertmanager', alertmanager, record.alertmanager.log],
    ] as const
  ).filter(([, h]) => h.state !== 'ready');
  const health: MonitoringHealth = { prometheus, alertmanager, discovery: record.discovery };
  if (bad.length === 0) return health;
  const what = bad.map(([name, h, log]) => `${name} is ${h.state === 'down' ? 'not running' : 'not ready'} (log: ${log})`).join('; ');
  return { ...health, problem: `monitoring: ${what}; start it again with: fleetdeck sandbox monitoring start${dirFlag}` };
}
