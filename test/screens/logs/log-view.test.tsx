import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { startLogsFeed, type LogsWork } from '../../../src/feeds/logs.js';
import type { PodLogOptions } from '../../../src/kube/pods/pod-logs.js';
import type { LogPod } from '../../../src/kube/pods/workloads.js';
import type { LogTarget } from '../../../src/store/log-target.js';
import { logPod } from '../../helpers/objects/log-pod.js';
import { cannedLogsWork } from '../../helpers/feeds/log-work.js';
import { threeContexts } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../helpers/screens/screen.js';

const LONG = `payload ${'x'.repeat(120)} END-OF-LONG-LINE`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: styles (a hit shown inverse) are what is taken out
const unstyled = (frame: string) => frame.replace(/\u001B\[[0-9;]*m/g, '');

const POD: LogPod = logPod('api-7d9', [{ name: 'app', restarts: 2 }, { name: 'sidecar' }]);

function linesFor(opts: PodLogOptions): string[] {
  if (opts.previous) return ['previous run: panic: nil map'];
  if (opts.container === 'sidecar') return ['sidecar up'];
  return ['starting api', 'error: cannot reach db', 'ready on :8080', 'ERROR twice', LONG];
}

/** Streams that deliver a few lines (by container and previous), then wait for their abort while following. */
function fakeWork() {
  return cannedLogsWork({
    pods: () => [POD],
    events: [
      { type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container app', count: 4, lastSeen: Date.now() - 60_000 },
    ],
    lines: linesFor,
  });
}

const TARGET: LogTarget = { title: 'api', context: 'kind-hosting', namespace: 'default', pods: ['api-7d9'] };

let dirs: string[] = [];
afterEach(() => {
  cleanup();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

async function openOnDetail(size?: { columns: number; rows: number }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-logview-'));
  dirs.push(dir);
  const store = threeContexts();
  const f = fakeWork();
  const feed = startLogsFeed(store, f.work, { flushMs: 5, dir });
  const screen = await renderApp(appProps(store, { actions: { logs: feed } }), size);
  // Given the operator in a context's Pods section
  await screen.press(KEYS.enter);
  await screen.press('p');
  await screen.waitFor(/Pods/);
  const before = screen.frame();
  // When a screen opens the log view for a row
  feed.openLogs(TARGET);
  await screen.waitFor('ERROR twice');
  return { screen, feed, f, store, dir, before };
}

describe('log view', () => {
  it('opens over the screen, shows the newest lines and the header; Esc returns to the screen as it was', async () => {
    const { screen, feed, before } = await openOnDetail();
    const frame = screen.frame();
    expect(frame).toContain('api · kind-hosting/default');
    expect(frame).toContain('api-7d9/app');
    expect(frame).toContain('follow on');
    expect(frame).toContain('esc back');
    await screen.press(KEYS.esc);
    await screen.waitFor((f) => !f.includes('ERROR twice'));
    expect(screen.frame()).toBe(before);
    await expect.poll(() => feed.openStreams()).toBe(0);
  });

  it('f turns following off and the streams re-open without follow', async () => {
    const { screen, f } = await openOnDetail();
    await screen.press('f');
    await screen.waitFor('follow off');
    expect(f.opened.at(-1)).toMatchObject({ follow: false, container: 'app' });
  });

  it('p shows the previous container instance', async () => {
    const { screen, f } = await openOnDetail();
    await screen.press('p');
    await screen.waitFor('previous run: panic');
    expect(screen.frame()).toContain('previous on');
    expect(f.opened.at(-1)).toMatchObject({ previous: true });
  });

  it('c cycles the containers', async () => {
    const { screen } = await openOnDetail();
    await screen.press('c');
    await screen.waitFor('sidecar up');
    expect(screen.frame()).toContain('api-7d9/sidecar');
    await screen.press('c');
    await screen.waitFor('ERROR twice');
    expect(screen.frame()).toContain('api-7d9/app');
  });

  it('/ searches; n and N walk the matches with a count', async () => {
    const { screen } = await openOnDetail();
    await screen.press('/', 'e', 'r', 'r', 'o', 'r');
    await screen.waitFor('/error');
    await screen.press(KEYS.enter);
    await screen.waitFor('match 2/2');
    await screen.press('n');
    await screen.waitFor('match 1/2');
    await screen.press('N');
    await screen.waitFor('match 2/2');
    await screen.press('/', 'z', 'z', 'z', KEYS.enter);
    await screen.waitFor('"zzz": no match');
  });

  it('w wraps long lines; t shows the times', async () => {
    const { screen } = await openOnDetail();
    expect(screen.frame()).not.toContain('END-OF-LONG-LINE');
    await screen.press('w');
    await screen.waitFor('END-OF-LONG-LINE');
    expect(screen.frame()).toContain('wrap on');
    await screen.press('t');
    await screen.waitFor('2026-01-01T10:00:00Z ready on :8080');
  });

  it('with wrap off, a search hit past the width shows: the line is shifted to it, a leading … for what is left out', async () => {
    // Given the log at 80 columns, wrap off, its long line cut before its end
    const { screen } = await openOnDetail({ columns: 80, rows: 24 });
    expect(screen.frame()).not.toContain('END-OF-LONG');

    // When the operator searches for what is at the end of the long line
    await screen.press('/', 'l', 'o', 'n', 'g', '-', 'l', 'i', 'n', 'e', KEYS.enter);
    const frame = await screen.waitFor('match 1/1');

    // Then that line shows the hit, after a leading … (the start of the line is left out), within the width
    const line =
      unstyled(frame)
        .split('\n')
        .find((l) => l.includes('LONG-LINE')) ?? '';
    expect(line).toMatch(/^…x+ END-OF-LONG-LINE$/);
    expect([...line].length).toBeLessThanOrEqual(80);
    // And the other lines are as they were
    expect(frame).toContain('error: cannot reach db');
  });

  it('s saves the lines to a new file and says where', async () => {
    const { screen, dir } = await openOnDetail();
    await screen.press('s');
    await screen.waitFor('saved 5 lines to');
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^api-7d9-app-.*\.log$/);
    expect(fs.readFileSync(path.join(dir, files[0]!), 'utf8')).toContain('2026-01-01T10:00:00Z ERROR twice\n');
  });

  it('shows the Events beside the log when wide, under it on e when narrow', async () => {
    const wide = await openOnDetail({ columns: 120, rows: 30 });
    await wide.screen.waitFor('Events of Pod api-7d9');
    cleanup();
    const narrow = await openOnDetail();
    expect(narrow.screen.frame()).not.toContain('Events of');
    await narrow.screen.press('e');
    await narrow.screen.waitFor('BackOff ×4');
  });

  it('? lists the log keys and the app’s it keeps (no screen switching: it takes every key); esc closes the help back to the log', async () => {
    const { screen } = await openOnDetail();
    await screen.press('?');
    const help = await screen.waitFor('previous container');
    expect(help).toMatch(/this help/);
    expect(help).toMatch(/q ctrl-c\s+quit/);
    expect(help).not.toMatch(/next screen|go to screen/);
    await screen.press(KEYS.esc);
    await screen.waitFor('ERROR twice');
  });

  for (const size of [
    { columns: 80, rows: 24 },
    { columns: 60, rows: 15 },
  ]) {
    it(`fits ${size.columns}×${size.rows} with no colour under NO_COLOR`, async () => {
      const { screen } = await openOnDetail(size);
      await screen.press('e');
      await screen.waitFor('Events of');
      const frame = screen.frame();
      const lines = frame.split('\n');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: styles are what is taken out
      const plain = (line: string) => line.replace(/\u001B\[[0-9;]*m/g, '');
      for (const line of lines) expect(plain(line).length, line).toBeLessThanOrEqual(size.columns);
      expect(lines.length).toBeLessThan(size.rows);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what is looked for
      expect(frame).not.toMatch(/\u001B\[(3|4|9)[0-9]m/);
    });
  }
});

describe('log view with no line', () => {
  it("shows each pod's API error on a line of its own", async () => {
    const store = threeContexts();
    const work: LogsWork = {
      findPods: async () => [POD, { ...POD, name: 'api-8e1' }],
      events: async () => [],
      stream: async (_c, _n, pod) => {
        throw new Error(`HTTP 400: container "app" in pod "${pod}" is waiting to start: trying and failing to pull image`);
      },
    };
    const feed = startLogsFeed(store, work, { flushMs: 5 });
    const screen = await renderApp(appProps(store, { actions: { logs: feed } }));
    feed.openLogs({ ...TARGET, pods: ['api-7d9', 'api-8e1'] });
    await screen.waitFor('api-8e1: HTTP 400: container "app" in pod "api-8e1" is waiting');
    expect(screen.frame()).toContain('api-7d9: HTTP 400: container "app" in pod "api-7d9" is waiting');
    expect(screen.frame()).toContain('2 failed');
  });
});
