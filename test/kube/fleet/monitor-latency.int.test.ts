/**
 * The first LATENCY a context shows is one GET /readyz on a connection already made, not the
 * TLS handshake and discovery before it. The monitor reaches a real API server through a relay,
 * on a clock that jumps a minute whenever the relay accepts a connection: a measurement that
 * spans a connection made (a handshake) is a minute or more, one that does not is under the
 * probe's own 3 s timeout, however loaded the machine.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { ContextMonitor } from '../../../src/kube/fleet/monitor.js';
import type { ContextPatch, ContextSink } from '../../../src/kube/fleet/sink.js';
import { eventually } from '../../helpers/cli/cli.js';
import { Relay, throughRelay } from '../../helpers/sandbox/relay.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const CONTEXT = 'kind-workload-1';
const MINUTE = 60_000;

let relay: Relay | undefined;
let monitor: ContextMonitor | undefined;

afterAll(async () => {
  await monitor?.stop();
  await relay?.close();
});

/** Only what the probe says of the context. */
class Patches implements ContextSink {
  readonly seen: ContextPatch[] = [];
  patchContext(_ctx: string, patch: ContextPatch): void {
    this.seen.push(patch);
  }
  upsertNode(): void {}
  deleteNode(): void {}
  resetNodes(): void {}
  nodesForbidden(): void {}
  setSlice(): void {}
}

describe("a context's first latency", () => {
  it('is the round trip of a /readyz on the connection discovery made, not the handshake and discovery', async () => {
    const kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
    const target = new URL(kc.getCurrentCluster()!.server);
    relay = new Relay({ host: target.hostname, port: Number(target.port) });
    const relayed = throughRelay(kc, await relay.listen());
    const accepted = () => relay!.accepted;
    const sink = new Patches();
    const info = { name: CONTEXT, cluster: CONTEXT, user: CONTEXT, server: relayed.getCurrentCluster()!.server };
    monitor = new ContextMonitor(info, relayed, sink, {
      listOnly: true,
      probeIntervalMs: 60 * MINUTE,
      clock: () => performance.now() + MINUTE * accepted(),
    });
    monitor.start();
    const first = await eventually('the first reachable patch', () => sink.seen.find((p) => p.reachability === 'reachable'));
    // The probe did make its connection(s) on this clock: a latency that counted them would be ≥ a minute.
    expect(accepted()).toBeGreaterThan(0);
    expect(first.latencyMs).toBeGreaterThanOrEqual(0);
    expect(first.latencyMs).toBeLessThan(MINUTE);
    expect(first.version).toMatch(/^v1\./);
  });
});
