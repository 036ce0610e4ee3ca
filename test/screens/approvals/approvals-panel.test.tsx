import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { KUBELET_CLIENT_SIGNER, withWarnings, type CsrSummary } from '../../../src/kube/csr/index.js';
import { pendingCsr } from '../../helpers/objects/csr.js';
import type { ApprovalActions } from '../../../src/store/actions.js';
import { approvalsClosed, approvalsOpened, csrsChanged, decisionDone, decisionStarted } from '../../../src/store/approvals.js';
import { updateSlice } from '../../../src/store/fleet-store.js';
import { withMissingPermission } from '../../../src/kube/transport/forbidden.js';
import { csrsFailed } from '../../../src/store/approvals.js';
import { everyTab, FORBIDDEN_APPROVAL } from '../../helpers/screens/every-tab.js';
import { threeContexts } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

function expectFits(frame: string): void {
  const lines = frame.split('\n');
  for (const line of lines) expect([...line].length, `${line}\n--- in ---\n${frame}`).toBeLessThanOrEqual(80);
  expect(lines.length, frame).toBeLessThan(24);
}

/**
 * The dashboard's store with the approvals feed on, and fake actions that record the calls and
 * write into the slice as the feed does: opening shows two pending requests claiming one node
 * from two requesters (a duplicate claim) and one already approved; approving one takes it off.
 */
function fakeApprovals() {
  const store = threeContexts();
  updateSlice(store, 'approvals', (s) => ({ ...s, status: 'on' }));
  const calls = { watched: [] as string[], approved: [] as string[], denied: [] as string[], stopped: 0 };
  const approvedOne: CsrSummary = { ...pendingCsr('csr-old', 'system:node:w1-a', 'w1-a', 300), condition: 'Issued' };
  let list = withWarnings([
    pendingCsr('csr-aaa11', 'system:bootstrap:abc123', 'w1-new', 5),
    pendingCsr('csr-bbb22', 'system:bootstrap:zzz999', 'w1-new', 2),
    approvedOne,
  ]);
  const emit = () => {
    const context = store.getState().approvals.context;
    if (context) updateSlice(store, 'approvals', (s) => csrsChanged(s, context, list));
  };
  const answer = (name: string, line: string) => {
    updateSlice(store, 'approvals', (s) => decisionStarted(s, name));
    queueMicrotask(() => updateSlice(store, 'approvals', (s) => decisionDone(s, line)));
  };
  const actions: ApprovalActions = {
    open: (context) => {
      calls.watched.push(context);
      updateSlice(store, 'approvals', (s) => approvalsOpened(s, context));
      queueMicrotask(emit);
    },
    close: () => {
      calls.stopped++;
      updateSlice(store, 'approvals', approvalsClosed);
    },
    approve: (name) => {
      calls.approved.push(name);
      list = withWarnings(list.filter((c) => c.name !== name));
      emit();
      answer(name, `${name}: approved`);
    },
    deny: (name) => {
      calls.denied.push(name);
      answer(name, `${name}: denied`);
    },
  };
  return { store, actions, calls };
}

describe('Approvals panel (A on the Status contexts)', () => {
  it('A opens the selected context’s pending CSRs with their warnings; y then y approves; Esc returns', async () => {
    const { store, actions, calls } = fakeApprovals();
    const s = await renderApp(appProps(store, { actions: { approvals: actions } }));
    await s.press('j');
    await s.press('A');
    const frame = await s.waitFor('2 pending');
    expect(calls.watched).toEqual(['kind-workload-1']);
    expect(frame).toContain('Approvals · kind-workload-1');
    expect(frame).toContain('csr-aaa11  from system:bootstrap:abc123  age 5m');
    expect(frame).toContain(`signer  ${KUBELET_CLIENT_SIGNER}`);
    expect(frame).toContain('usages  digital signature, client auth');
    expect(frame).toContain('subject CN=system:node:w1-new, O=system:nodes  SANs 10.0.0.7');
    // The warning wraps rather than being cut.
    expect(frame.replace(/\n\s+/g, ' ')).toContain('‼ node w1-new is also claimed by pending requests from system:bootstrap:zzz999');
    expect(frame).toContain('csr-bbb22');
    // Decided requests are not listed.
    expect(frame).not.toContain('csr-old');
    expectFits(frame);

    await s.press('j');
    await s.press('y');
    const asking = await s.waitFor('Approve csr-bbb22 despite 1 warning? y/n');
    expect(asking).toContain('n/esc no, change nothing');
    await s.press('y');
    await s.waitFor('csr-bbb22: approved');
    expect(calls.approved).toEqual(['csr-bbb22']);
    const after = await s.waitFor('1 pending');
    expect(after).not.toContain('‼ node w1-new');

    await s.press(KEYS.esc);
    const back = await s.waitFor((f) => !f.includes('Approvals ·'));
    expect(back).toContain('kind-workload-2');
    expect(calls.stopped).toBe(1);
  });

  it('d then n changes nothing, and the keys stay with the panel while it asks', async () => {
    const { store, actions, calls } = fakeApprovals();
    const s = await renderApp(appProps(store, { actions: { approvals: actions } }));
    await s.press('A');
    await s.waitFor('2 pending');
    await s.press('d');
    await s.waitFor('Deny csr-aaa11 despite 1 warning? y/n');
    // Esc while asking answers no (it does not leave the panel).
    await s.press('n');
    const frame = await s.waitFor('Nothing was changed.');
    expect(frame).toContain('Approvals · kind-hosting');
    expect(calls.denied).toEqual([]);
    expect(calls.approved).toEqual([]);
  });

  it('refuses to approve or deny in --read-only and says so', async () => {
    const { store, actions, calls } = fakeApprovals();
    const s = await renderApp(appProps(store, { ui: { readOnly: true, ascii: false, color: false }, actions: { approvals: actions } }));
    await s.press('A');
    await s.waitFor('2 pending · read-only');
    await s.press('y');
    // The write gate's own line, as `fleetdeck approve --read-only` says it.
    await s.waitFor('approve approves certificate requests and is refused with --read-only');
    await s.press('y');
    await s.press('d');
    const frame = await s.waitFor('approve denies certificate requests and is refused with --read-only');
    expect(frame).not.toContain('y/n');
    expect(calls.approved).toEqual([]);
    expect(calls.denied).toEqual([]);
  });

  it('without the approvals actions, A does nothing', async () => {
    const s = await renderApp(appProps(threeContexts()));
    await s.waitFor(/❯ kind-hosting/);
    // A is handled before j: once j is seen moving the cursor on the contexts table, A opened nothing
    await s.press('A', 'j');
    expect(await s.waitFor(/❯ kind-workload-1/)).not.toContain('Approvals ·');
  });
});

describe('a refusal from the cluster', () => {
  /** The frame's lines joined, so text wrapped over lines reads as one. */
  const joined = (frame: string) =>
    frame
      .split('\n')
      .map((l) => l.trim())
      .join(' ');

  it.each([
    [80, 24],
    [60, 16],
  ])('at %i×%i shows which permission is missing, wrapped or shortened from the middle', async (columns, rows) => {
    // Given the cluster refuses approvals with a 403, as the approvals feed words it
    const props = everyTab({}, (name) => withMissingPermission(`${name}: ${FORBIDDEN_APPROVAL}`));
    const s = await renderApp(props, { columns, rows });
    await s.press('A');
    await s.waitFor('3 pending');

    // When a request is approved
    await s.press('y');
    await s.waitFor('y/n');
    await s.press('y');

    // Then the line says which request, that it was not approved, and what permission is missing
    const frame = await s.waitFor((f) => joined(f).includes('needs update on certificatesigningrequests/approval)'));
    expect(joined(frame)).toMatch(/csr-aaa11: not approved: HTTP 403/);
    const lines = frame.split('\n');
    for (const line of lines) expect([...line].length, frame).toBeLessThan(columns);
    expect(lines.length, frame).toBeLessThan(rows);
    expect(frame).toContain('y approve');
  });

  it('a watch refused says what it needs too', async () => {
    const props = everyTab({}, undefined);
    const s = await renderApp(props, { columns: 60, rows: 16 });
    await s.press('A');
    await s.waitFor('3 pending');
    const context = props.store.getState().approvals.context ?? '';
    const refused = withMissingPermission(
      'HTTP 403: certificatesigningrequests.certificates.k8s.io is forbidden: User "system:serviceaccount:ops:readonly-bastion-operator" cannot watch resource "certificatesigningrequests" in API group "certificates.k8s.io" at the cluster scope',
    );
    updateSlice(props.store, 'approvals', (a) => csrsFailed(a, context, refused));
    const frame = await s.waitFor((f) => joined(f).includes('(needs watch on certificatesigningrequests) (retrying)'));
    expect(joined(frame)).toContain('watch: HTTP 403');
  });
});
