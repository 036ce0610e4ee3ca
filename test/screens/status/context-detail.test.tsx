import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { UpdateBatcher } from '../../../src/store/status.js';
import { node, novaFleet, pods, problem, warning } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp, type Screen } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

const lines = (frame: string) => frame.split('\n');
/** The highlighted section tab, e.g. "p Pods 3 bad" (the frame has no color, so find it by the tab line). */
const tabLine = (frame: string) => lines(frame).find((l) => /\bi Info\b/.test(l)) ?? '';

/** Open kind-cp (the first row) of the nova fleet. */
async function openHosting(store = novaFleet()): Promise<Screen> {
  const screen = await renderApp(appProps(store));
  await screen.waitFor('Fleet elotl on kind-cp');
  await screen.press(KEYS.enter);
  await screen.waitFor('Checks');
  return screen;
}

describe('Context sections', () => {
  it('i, n, p, e and the arrows move between Info, Nodes, Pods and Events; Esc goes back to the list', async () => {
    // Given the detail of kind-cp, on Info
    const screen = await openHosting();
    const info = screen.frame();
    expect(lines(info)[3]).toMatch(/^kind-cp\s+reachable \(4 ms\) · hosting · v1\.31\.0/);
    expect(tabLine(info)).toMatch(/i Info\s+n Nodes 3\/3\s+p Pods 3 bad\s+e Events 2/);
    expect(info).toContain('Fleet role    hosting, namespace elotl');

    // When n is pressed: the nodes table
    await screen.press('n');
    let frame = await screen.waitFor('KUBELET');
    expect(frame).toMatch(/NAME\s+READY\s+ZONE\s+ROLES\s+KUBELET\s+FLAGS/);
    expect(frame).toMatch(/cp-a\s+Ready\s+zone-a\s+control-plane\s+v1\.31\.0/);

    // When p is pressed: the pods needing attention
    await screen.press('p');
    frame = await screen.waitFor('needing attention');
    expect(frame).toContain('elotl/nova-scheduler-59d-x3');

    // When e is pressed: the warnings
    await screen.press('e');
    frame = await screen.waitFor('LAST SEEN');
    expect(frame).toContain('Back-off restar');

    // When ← is pressed twice: Pods, then Nodes
    await screen.press('\u001B[D');
    await screen.waitFor('needing attention');
    await screen.press('\u001B[D');
    await screen.waitFor('KUBELET');

    // When → is pressed: Pods again; and i: Info
    await screen.press('\u001B[C');
    await screen.waitFor('needing attention');
    await screen.press('i');
    await screen.waitFor('Checks');

    // When ← is pressed on Info: back to the list, where Enter opens the section seen last
    await screen.press('\u001B[D');
    await screen.waitFor('f: checklist');
    await screen.press('j', 'p', KEYS.enter);
    frame = await screen.waitFor('Checks');
    expect(frame).toMatch(/^nova\s/m);

    // When p and then Esc
    await screen.press('p');
    await screen.waitFor('No pods.');
    await screen.press(KEYS.esc);

    // Then the list is back, nova still selected
    frame = await screen.waitFor('f: checklist');
    expect(lines(frame).find((l) => l.startsWith('❯'))).toContain('nova');
  });

  it('keeps the section when another context is opened, to compare them', async () => {
    // Given the Events of kind-cp
    const screen = await openHosting();
    await screen.press('e');
    await screen.waitFor('LAST SEEN');

    // When the operator goes back and opens kind-workload-2
    await screen.press(KEYS.esc, 'G', KEYS.enter);

    // Then its events are shown straight away
    const frame = await screen.waitFor('Failed to pull');
    expect(frame).toMatch(/^kind-workload-2\s/m);
  });

  it('Pods lists the pods needing attention with their reasons, the counts by phase and "showing N of M"', async () => {
    // Given more pods needing attention than are listed
    const store = novaFleet();
    const b = new UpdateBatcher(store, -1);
    const current = store.getState().status.contexts['kind-cp']!.pods;
    b.setSlice('kind-cp', 'pods', { ...current, problemCount: 37 });
    b.flush();
    const screen = await openHosting(store);

    // When p is pressed
    await screen.press('p');

    // Then
    const frame = await screen.waitFor('needing attention');
    expect(frame).toContain('142 pods: 136 Running · 2 Pending · 1 Failed · 3 Succeeded');
    expect(frame).toMatch(/NAMESPACE\/NAME\s+PHASE\s+REASON\s+RESTARTS\s+NODE/);
    expect(frame).toMatch(/elotl\/nova-scheduler-59d-x3\s+Running\s+CrashLoopBackOff\s+17\s+cp-a/);
    expect(frame).toMatch(/batch\/ingest-7c9d4-q2w\s+Pending\s+Unschedulable: 0\/3 nod…\s+0\s+-/);
    expect(frame).toMatch(/batch\/report-28893110-k2x\s+Failed\s+Error\s+0\s+cp-b/);
    expect(frame).toContain('showing 3 of 37 needing attention');
    expect(tabLine(frame)).toContain('p Pods 37 bad');
  });

  it('Enter shows the selected pod in full, wrapped; Esc closes it, Esc again goes back', async () => {
    // Given the Pods section
    const screen = await openHosting();
    await screen.press('p');
    await screen.waitFor('needing attention');

    // When the second pod is selected and Enter pressed
    await screen.press('j', KEYS.enter);

    // Then its whole reason is shown under the table, over two lines
    const frame = await screen.waitFor('batch/ingest-7c9d4-q2w\n');
    expect(frame.replace(/\n\s+/g, ' ')).toContain(
      'Pending: Unschedulable: 0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available',
    );
    expect(frame).toContain('no node · 0 restarts');
    expect(lines(frame).at(-1)).toContain('enter/esc close');

    // When Esc is pressed: the pane closes, the section stays
    await screen.press(KEYS.esc);
    await screen.waitFor((f) => !f.includes('no node · 0 restarts') && f.includes('needing attention'));

    // When Esc is pressed again: the list
    await screen.press(KEYS.esc);
    await screen.waitFor('f: checklist');
  });

  it('/ filters the rows of a section by substring; Esc clears the filter first', async () => {
    // Given the Pods section
    const screen = await openHosting();
    await screen.press('p');
    await screen.waitFor('needing attention');

    // When "batch" is typed after / and kept
    await screen.press('/', ...'batch', KEYS.enter);

    // Then only the two batch pods are left
    let frame = await screen.waitFor('2 of 3 listed match');
    expect(frame).toContain('filter batch');
    expect(frame).not.toContain('nova-scheduler-59d-x3');
    expect(frame).toContain('batch/ingest-7c9d4-q2w');

    // When a filter that matches nothing is typed
    await screen.press('/', 'z', 'z', KEYS.enter);
    await screen.waitFor('Nothing matches "batchzz"');

    // When one letter is taken back, the filter is only one letter shorter
    await screen.press('/', KEYS.backspace, KEYS.enter);
    await screen.waitFor('Nothing matches "batchz"');

    // When Esc clears it
    await screen.press(KEYS.esc);
    frame = await screen.waitFor('showing 3 of 3');
    expect(frame).toContain('nova-scheduler-59d-x3');
  });

  it('a live update of the pods changes the section, its tab and the table', async () => {
    // Given the Pods of kind-workload-2
    const store = novaFleet();
    const screen = await renderApp(appProps(store));
    await screen.waitFor('Fleet elotl on kind-cp');
    await screen.press('G', KEYS.enter, 'p');
    await screen.waitFor('showing 1 of 1 needing attention');

    // When a second pod starts crash-looping
    const b = new UpdateBatcher(store, -1);
    const current = store.getState().status.contexts['kind-workload-2']!.pods;
    b.setSlice('kind-workload-2', 'pods', {
      ...current,
      problemCount: 2,
      problems: [
        ...current.problems,
        problem('web-5d8f-abc12', 'CrashLoopBackOff', { namespace: 'shop', phase: 'Running', restarts: 9, node: 'w2-b' }),
      ],
    });
    b.flush();

    // Then the new pod is listed, and the counts follow
    const frame = await screen.waitFor('shop/web-5d8f-abc12');
    expect(frame).toMatch(/shop\/web-5d8f-abc12\s+Running\s+CrashLoopBackOff\s+9\s+w2-b/);
    expect(frame).toContain('showing 2 of 2 needing attention');
    expect(tabLine(frame)).toContain('p Pods 2 bad');

    // And back on the list, the PODS column too
    await screen.press(KEYS.esc);
    const list = await screen.waitFor('f: checklist');
    expect(lines(list).find((l) => l.includes('kind-workload-2 '))).toContain('40, 2 bad');
  });

  it('forbidden pods and events say which permission is missing', async () => {
    // Given a context whose user may not list pods nor events
    const store = novaFleet();
    const b = new UpdateBatcher(store, -1);
    b.setSlice('kind-workload-1', 'pods', {
      ...pods(),
      synced: false,
      forbidden: 'cannot list pods: HTTP 403: pods is forbidden (needs list/watch on pods)',
    });
    b.setSlice('kind-workload-1', 'events', {
      synced: false,
      warnings: [],
      forbidden: 'cannot list events: HTTP 403 (needs list/watch on events)',
    });
    b.flush();
    const screen = await renderApp(appProps(store));
    let frame = await screen.waitFor('Fleet elotl on kind-cp');
    expect(lines(frame).find((l) => l.includes('kind-workload-1 '))).toMatch(/2\/2, 1 cordoned\s+denied\s+denied$/);

    // When its Pods are opened
    await screen.press('j', 'j', KEYS.enter, 'p');

    // Then the missing permission is named
    frame = await screen.waitFor('Cannot list pods');
    expect(frame).toContain('Cannot list pods: missing permission');
    expect(frame).toContain('needs list/watch on pods');
    expect(tabLine(frame)).toContain('p Pods forbidden');

    // When its Events are opened
    await screen.press('e');
    frame = await screen.waitFor('Cannot list events');
    expect(frame).toContain('needs list/watch on events');
  });

  it('Events lists each warning once, newest first, with how long ago; Enter shows the whole message', async () => {
    // Given warnings out of order, one of them reported twice
    const store = novaFleet();
    const b = new UpdateBatcher(store, -1);
    const long =
      'MountVolume.SetUp failed for volume "etcd-data" : mount failed: exit status 32 Mounting command: mount Mounting arguments: -t nfs 10.0.0.9:/exports/etcd /var/lib/kubelet/pods/abc/volumes output: access denied by server';
    b.setSlice('kind-cp', 'events', {
      synced: true,
      warnings: [
        warning('FailedMount', 'Pod elotl/etcd-0', 30, { count: 3, message: 'old message' }),
        warning('Unhealthy', 'Pod elotl/apiserver-5c7b9-x1', 2, {
          count: 5,
          message: 'Readiness probe failed: HTTP probe failed with statuscode: 500',
        }),
        warning('FailedMount', 'Pod elotl/etcd-0', 1, { count: 4, message: long }),
        warning('BackOff', 'Pod elotl/nova-scheduler-59d-x3', 125, { count: 42 }),
      ],
    });
    b.flush();
    const screen = await openHosting(store);

    // When e is pressed
    await screen.press('e');

    // Then one row per reason and object, newest first, counts added up
    const frame = await screen.waitFor('LAST SEEN');
    expect(frame).toMatch(/LAST SEEN\s+REASON\s+OBJECT\s+COUNT\s+MESSAGE/);
    const rows = lines(frame).filter((l) => /^[❯ ] +\d+[smhd] /.test(l));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^❯\s+1m\s+FailedMount\s+Pod elotl\/etcd-0\s+7\s+MountVolume/);
    expect(rows[1]).toMatch(/2m\s+Unhealthy\s+.*\s+5\s+Readiness probe/);
    expect(rows[2]).toMatch(/2h\s+BackOff\s+.*\s+42\s/);
    expect(frame).toContain('3 recent warnings, newest first');

    // When Enter is pressed on the first
    await screen.press(KEYS.enter);

    // Then its whole message is shown, wrapped
    const full = await screen.waitFor('FailedMount on Pod elotl/etcd-0');
    expect(full.replace(/\n\s+/g, ' ')).toContain(long);
    expect(full).toContain('7 times, last 1m ago');

    // When j moves to the next row, the pane follows
    await screen.press('j');
    await screen.waitFor('Unhealthy on Pod elotl/apiserver-5c7b9-x1');
  });

  it('Nodes shows why a node is not ready, cordoned nodes and kubelets outside the version skew', async () => {
    // Given nodes: one NotReady, one cordoned, one with a kubelet four minors behind
    const store = novaFleet();
    const b = new UpdateBatcher(store, -1);
    b.resetNodes('kind-cp', [
      node('cp-a', { zone: 'zone-a', roles: ['control-plane'] }),
      node('cp-b', { zone: 'zone-b', ready: false, notReadyReason: 'KubeletNotReady: container runtime network not ready' }),
      node('cp-c', { zone: 'zone-c', unschedulable: true }),
      node('cp-d', { zone: 'zone-c', kubeletVersion: 'v1.27.4' }),
    ]);
    b.flush();
    const screen = await openHosting(store);

    // When n is pressed
    await screen.press('n');

    // Then
    const frame = await screen.waitFor('KUBELET');
    expect(frame).toContain('4 nodes · 3 ready · 1 cordoned · kubelet v1.31.0 ×3, v1.27.4 ×1 · 1 skewed');
    const all = lines(frame);
    const b2 = all.findIndex((l) => /cp-b\s+NotReady/.test(l));
    expect(all[b2 + 1]).toContain('KubeletNotReady: container runtime network not ready');
    expect(frame).toMatch(/cp-c\s+Ready\s+zone-c\s+-\s+v1\.31\.0\s+cordoned/);
    expect(frame).toMatch(/cp-d\s+Ready\s+zone-c\s+-\s+v1\.27\.4\s+version skew/);

    // When the skewed node is shown in full
    await screen.press('G', KEYS.enter);
    const full = await screen.waitFor('minor versions older');
    expect(full.replace(/\n\s+/g, ' ')).toContain('kubelet v1.27.4 is 4 minor versions older than the API server v1.31.0');
  });
});
