/**
 * The log view's figures, in-process: the real dashboard drawn to a virtual terminal, the real
 * logs feed and store, fed by a synthetic source writing RATE lines a second. (a) frames a second
 * while following it, key answered latency (t, the timestamps toggle, until the header shows it),
 * heap and RSS growth over the run (the rings keep it bounded); (b) streams still open after Esc.
 */
import os from 'node:os';
import { benchDashboard } from './dashboard.js';
import { startLogsFeed, type LogsWork } from '../feeds/logs.js';
import { renderApp } from '../screens/render.js';
import { createFleetStore } from '../store/fleet-store.js';
import { figure, mib, ms, note, percentile, progress, sleep, waitFor } from './util.js';
import { KeyStdin, VirtualTerminal } from './vterm.js';

const RATE = 1_000;
const TICK_MS = 10;

/** One pod whose container writes RATE lines a second until its stream is aborted. */
function syntheticWork(): LogsWork {
  let n = 0;
  return {
    findPods: async () => [
      {
        namespace: 'default',
        name: 'bench-logs-0',
        uid: 'bench-logs-0',
        labels: {},
        containers: ['app'],
        initContainers: [],
        statuses: { app: { restarts: 0, containerID: 'bench://app', state: 'running' } },
        deleting: false,
        finished: false,
      },
    ],
    events: async () => [],
    stream: (_c, _ns, _pod, _opts, onEntry, signal) =>
      new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          const time = new Date().toISOString();
          for (let i = 0; i < (RATE * TICK_MS) / 1000; i++) {
            n++;
            onEntry({ time, text: `level=info msg="request served" n=${n} path=/api/v1/items/${n % 977} latency_ms=${n % 53}` });
          }
        }, TICK_MS);
        signal.addEventListener('abort', () => {
          clearInterval(timer);
          resolve();
        });
      }),
  };
}

const rss = () => process.memoryUsage().rss;
const heap = () => {
  global.gc?.();
  return process.memoryUsage().heapUsed;
};

export async function logViewFigures(seconds = Number(process.env.FLEETDECK_BENCH_LOG_SECONDS ?? 60)): Promise<void> {
  progress(`log view: following ${RATE} lines/s for ${seconds} s`);
  const store = createFleetStore([{ name: 'bench', cluster: 'bench', user: 'u', server: 'https://bench' }]);
  const feed = startLogsFeed(store, syntheticWork());
  const vt = new VirtualTerminal(80, 24);
  const stdin = new KeyStdin();
  const app = benchDashboard(renderApp, { store, stdout: vt, stdin: stdin, kubeconfigFiles: [], actions: { logs: feed } });
  try {
    feed.openLogs({ title: 'bench', context: 'bench', namespace: 'default', pods: ['bench-logs-0'] });
    await waitFor('log lines on screen', () => vt.screen().some((l) => l.includes('request served')), { timeoutMs: 10_000 });
    await sleep(2_000);
    const heap0 = heap();
    const rss0 = rss();
    let updates = 0;
    const unsubscribe = store.subscribe((s, prev) => {
      if (s.logs !== prev.logs) updates++;
    });
    // A frame is the writes of one render (Ink may write it in a few pieces): those of one turn of the event loop.
    let frames = 0;
    let inFrame = false;
    const stopCounting = vt.onWrite(() => {
      if (inFrame) return;
      inFrame = true;
      frames++;
      setImmediate(() => {
        inFrame = false;
      });
    });
    const t0 = performance.now();
    const latencies: number[] = [];
    let on = false;
    while (performance.now() - t0 < seconds * 1000) {
      await sleep(500 + Math.random() * 500);
      on = !on;
      const want = on ? 'time on' : 'time off';
      const shown = vt.waitForScreen((screen) => screen.some((l) => l.includes(want)), 5_000);
      const k0 = performance.now();
      stdin.press('t');
      const at = await shown;
      if (at !== undefined) latencies.push(at - k0);
    }
    const secs = (performance.now() - t0) / 1000;
    unsubscribe();
    stopCounting();
    const fps = frames / secs;
    const heapGrowth = heap() - heap0;
    const rssGrowth = rss() - rss0;
    const lines = store.getState().logs.sources[0]?.ring.length ?? 0;
    figure(`log view following ${RATE} lines/s, frames a second (${secs.toFixed(0)} s)`, fps.toFixed(1), '≤ 20', fps <= 20);
    note(
      `${(updates / secs).toFixed(1)} store updates a second; ${lines} lines held (the ring); load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`,
    );
    const p95 = percentile(latencies, 95);
    if (process.env.FLEETDECK_BENCH_VERBOSE) note(`latencies: ${latencies.map((x) => x.toFixed(0)).join(' ')}`);
    figure(
      `log view key answered while streaming, p95 of ${latencies.length} keys`,
      ms(p95),
      '≤ 100 ms',
      latencies.length ? p95 <= 100 : undefined,
    );
    figure(
      `log view memory growth after ${secs.toFixed(0)} s (heap / RSS)`,
      `${mib(heapGrowth)} / ${mib(rssGrowth)}`,
      '≤ 50 MiB',
      rssGrowth <= 50 * 1024 * 1024 && heapGrowth <= 50 * 1024 * 1024,
    );

    stdin.press('\u001B[27u');
    await waitFor('the log view closed', () => !vt.screen().some((l) => l.includes('request served')), { timeoutMs: 5_000 });
    const closed = await waitFor('streams ended', () => feed.openStreams() === 0 || undefined, { timeoutMs: 5_000 }).catch(() => false);
    figure('log view streams open after Esc', String(feed.openStreams()), '0', closed === true);
  } finally {
    feed.stop();
    app.unmount();
  }
}
