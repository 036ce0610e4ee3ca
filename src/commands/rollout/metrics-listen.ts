/** `--metrics-listen HOST:PORT`: the rollout's Prometheus metrics served while it runs here (the in-cluster runner always serves them). */
import { UserError } from '../../errors.js';
import { createRolloutMetrics, serveMetrics, type RolloutMetrics } from '../../rollout/guards/metrics.js';

/** `0.0.0.0:9464`, `:9464`, `127.0.0.1:0`, `[::]:9464`. */
export function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text.trim());
  const port = Number(m?.[3]);
  if (!m || port > 65_535) throw new UserError(`--metrics-listen "${text}": give HOST:PORT, e.g. 0.0.0.0:9464 or :9464`, 2);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

export async function serveRolloutMetrics(listen: string): Promise<{ metrics: RolloutMetrics; close(): Promise<void> }> {
  const { host, port } = parseListen(listen);
  const metrics = createRolloutMetrics();
  try {
    const server = await serveMetrics(metrics, { host, port });
    return { metrics, close: () => server.close() };
  } catch (err) {
    throw new UserError(`cannot serve metrics on ${listen}: ${(err as Error).message}`);
  }
}
