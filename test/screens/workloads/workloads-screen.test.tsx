import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { everyTab } from '../../helpers/screens/every-tab.js';
import { KEYS, renderApp } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

const rowOf = (frame: string, name: string) => frame.split('\n').find((l) => l.includes(name)) ?? '';

describe('the Workloads tab', () => {
  it('one row per workload, the worst first: how it is placed, its clusters with ready replicas, its state; the header counts what needs a look', async () => {
    const screen = await renderApp(everyTab(), { columns: 100, rows: 24 });
    await screen.waitFor('kind-cp');
    await screen.press('5');
    const frame = await screen.waitFor('deployment/web');
    expect(frame).toMatch(/Workloads of nova · 3 objects · 1 pending · read \d\d:\d\d:\d\d · sorted by state/);
    const lines = frame.split('\n');
    const first = lines.findIndex((l) => l.includes('deployment/'));
    expect(lines[first]).toMatch(/❯ shop\s+deployment\/huge\s+policy big\s+-\s+0\/1\s+pending/);
    expect(rowOf(frame, 'deployment/pinned')).toMatch(/annotation\s+w2 2\/2\s+2\/2\s+placed/);
    expect(rowOf(frame, 'deployment/web')).toMatch(/policy split\s+w1 3\/3, w2 7\/7\s+10\/10\s+divided/);
  });

  it('s sorts by namespace then name; / filters; Enter opens the placement checklist with the shortfall and a hint; Esc goes back', async () => {
    const screen = await renderApp(everyTab(), { columns: 100, rows: 30 });
    await screen.waitFor('kind-cp');
    await screen.press('5');
    await screen.waitFor('deployment/web');
    await screen.press('s');
    const sorted = await screen.waitFor('sorted by namespace');
    expect(sorted.indexOf('deployment/huge')).toBeLessThan(sorted.indexOf('deployment/pinned'));

    await screen.press('/', ...'huge');
    await screen.waitFor('1 of 3');
    await screen.press(KEYS.enter, KEYS.enter);
    const checklist = await screen.waitFor('Not scheduled');
    expect(checklist).toContain('deployment/huge in shop: pending');
    expect(checklist).toContain('√ SchedulePolicy big matches it');
    expect(checklist).toMatch(/✗ Cluster w1 {2}room for 0 of 1 pod\(s\) of 64 cores; most free on one node: 3\.9 cores, 8 GiB/);
    expect(checklist).toContain('free room in cluster w1 or lower the requests');
    expect(checklist).toContain('esc back');

    await screen.press(KEYS.esc);
    const back = await screen.waitFor('sorted by namespace');
    expect(back).toContain('deployment/huge');
  });

  it('l shows the logs of the selected workload’s pods in the first cluster running it', async () => {
    const screen = await renderApp(everyTab(), { columns: 100, rows: 24 });
    await screen.waitFor('kind-cp');
    await screen.press('5');
    await screen.waitFor('deployment/web');
    await screen.press('/', ...'web', KEYS.enter);
    await screen.waitFor('1 of 3');
    await screen.press('l');
    const logs = await screen.waitFor('deployment/web · w1 (kind-workload-1) · kind-workload-1/shop');
    // The view looks for the Deployment's pods by its selector in that cluster.
    expect(logs).toContain('(selector app=web)');
  });
});
