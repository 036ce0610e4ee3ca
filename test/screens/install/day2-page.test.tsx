/**
 * The Install tab's Day 2 page through the dashboard and its Day 2 feed, with fake operations:
 * the menu (an operation absent from the build says so), the plan first, confirm, live rows,
 * done/failed with the hint, Esc back; under --read-only an operation that writes is refused
 * with the gate's line and never runs.
 */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckItem } from '../../../src/checklist/checklist.js';
import { type Day2Operation, notAvailable } from '../../../src/day2/operation.js';
import type { Day2Registry } from '../../../src/day2/registry.js';
import { startDay2Feed } from '../../../src/feeds/day2.js';
import { writeGate } from '../../../src/kube/transport/gate.js';
import type { Session } from '../../../src/session/session.js';
import { day2Session } from '../../helpers/feeds/day2.js';
import { threeContexts } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../helpers/screens/screen.js';

afterEach(() => {
  cleanup();
});

/** The fake session of the Day 2 page, with the write gate of --read-only when `readOnly`. */
function sessionOf(readOnly: boolean): () => Session {
  const gate = writeGate(readOnly);
  return () => ({ ...day2Session(), readOnly, assertWritable: gate.assertWritable });
}

/** An operation whose run publishes a running row, then ends as `end` once released; counts its plans and runs. */
function fakeOperation(id: string, label: string, end: CheckItem, writes?: { action: string }) {
  const calls = { plan: [] as Record<string, string>[], run: 0 };
  let release: () => void = () => {};
  const op: Day2Operation = {
    id,
    label,
    ...(writes ? { writes } : {}),
    inputs: () => [{ key: 'file', label: 'Backup file', default: `/backups/${id}.yaml` }],
    async plan(target, inputs) {
      calls.plan.push(inputs);
      return { todo: true, lines: [`${label} of context ${target.context} with ${inputs.file}`, '3 to create, 0 to update, 1 unchanged.'] };
    },
    run(_t, _i, onProgress) {
      calls.run++;
      onProgress([{ id: 'read', label: 'Read the objects', state: 'running', detail: 'Deployment (2/5)' }]);
      return new Promise((resolve) => {
        release = () =>
          resolve({ ok: end.state !== 'fail', steps: [end], summary: `${label}: ${end.detail}`, ...(end.hint ? { hint: end.hint } : {}) });
      });
    },
  };
  return { op, calls, release: () => release() };
}

function dashboard(ops: Day2Operation[], readOnly = false) {
  const store = threeContexts();
  const registry: Day2Registry = {
    operations: [...ops, notAvailable('renew', 'Renew certificates')],
    lastBackup: () => ({ file: '/backups/last.yaml', at: new Date(Date.now() - 3 * 3600_000).toISOString(), context: 'nova' }),
  };
  const day2 = startDay2Feed(store, sessionOf(readOnly), { registry: () => registry });
  return appProps(store, { actions: { day2 }, ui: { readOnly, ascii: false, color: false } });
}

describe('the Day 2 page (Install tab, d)', () => {
  it('shows the menu and facts, plans first, runs on enter with live rows, ends done, Esc goes back', async () => {
    // Given the dashboard with a backup operation and one absent from the build
    const backup = fakeOperation('backup', 'Back up now', { id: 'write', label: 'Write the backup file', state: 'ok', detail: 'written' });
    const screen = await renderApp(dashboard([backup.op]));
    await screen.press('2');
    const install = await screen.waitFor('Press d for day 2');
    expect(install).toMatch(/d day 2/);

    // When d is pressed, the menu and the control plane's facts
    await screen.press('d');
    const menu = await screen.waitFor('Renew certificates (not available in this build)');
    expect(menu).toContain('› Back up now');
    expect(menu).toContain('control plane: context nova');
    expect(menu).toMatch(/last backup from this machine: \/backups\/last\.yaml \(3h ago\)/);
    expect(menu).toMatch(/enter choose/);

    // When enter chooses it, its input with the default, then the plan (nothing ran)
    await screen.press(KEYS.enter);
    await screen.waitFor('/backups/backup.yaml');
    await screen.press(KEYS.enter);
    const plan = await screen.waitFor('Press enter to run it.');
    expect(plan).toContain('Back up now: the plan (nothing changed yet)');
    expect(plan).toContain('Back up now of context nova with /backups/backup.yaml');
    expect(backup.calls.plan).toEqual([{ file: '/backups/backup.yaml' }]);
    expect(backup.calls.run).toBe(0);

    // When enter confirms, the live rows
    await screen.press(KEYS.enter);
    const running = await screen.waitFor('Deployment (2/5)');
    expect(running).toMatch(/Read the objects/);
    expect(running).toContain('running…');
    // Esc does nothing while it runs
    await screen.press(KEYS.esc);
    expect(screen.frame()).toContain('Deployment (2/5)');

    // Then, ended, the last rows and the summary
    backup.release();
    const done = await screen.waitFor('Back up now: written');
    expect(done).toMatch(/√ Write the backup file/);
    expect(backup.calls.run).toBe(1);

    // When Esc is pressed, the menu; again, the Install page
    await screen.press(KEYS.esc);
    await screen.waitFor('› Back up now');
    await screen.press(KEYS.esc);
    await screen.waitFor('Press d for day 2');
  });

  it('a failed run shows its failed row, the summary and what to do', async () => {
    const restore = fakeOperation('restore', 'Restore from a file', {
      id: 'apply-rest',
      label: 'Apply the other objects',
      state: 'fail',
      detail: 'SchedulePolicy p1: forbidden',
      hint: 'fix what failed and restore again: it continues',
    });
    const screen = await renderApp(dashboard([restore.op]));
    await screen.press('2');
    await screen.waitFor('Press d for day 2');
    await screen.press('d');
    await screen.waitFor('› Restore from a file');
    await screen.press(KEYS.enter);
    await screen.waitFor('/backups/restore.yaml');
    await screen.press(KEYS.enter);
    await screen.waitFor('Press enter to run it.');
    await screen.press(KEYS.enter);
    await screen.waitFor('Deployment (2/5)');
    restore.release();
    const failed = await screen.waitFor('fix what failed and restore again');
    expect(failed).toMatch(/✗ Apply the other objects/);
    expect(failed).toContain('Restore from a file: SchedulePolicy p1: forbidden');
  });

  it('under --read-only an operation that writes shows its plan with the gate line, and enter does not run it', async () => {
    const restore = fakeOperation(
      'restore',
      'Restore from a file',
      { id: 'verify', label: 'Verify', state: 'ok', detail: 'done' },
      { action: 'restore writes to the control plane' },
    );
    const screen = await renderApp(dashboard([restore.op], true));
    await screen.press('2');
    await screen.waitFor('Press d for day 2');
    await screen.press('d');
    await screen.waitFor('› Restore from a file');
    await screen.press(KEYS.enter);
    await screen.waitFor('/backups/restore.yaml');
    await screen.press(KEYS.enter);
    const plan = await screen.waitFor('restore writes to the control plane and is refused with --read-only');
    expect(plan).toContain('3 to create, 0 to update, 1 unchanged.');
    expect(plan).not.toContain('Press enter to run it.');
    // Confirming is off the key line, and enter gets the gate's one line
    expect(plan).not.toMatch(/enter confirm/);
    await screen.press(KEYS.enter);
    await screen.press(KEYS.esc);
    await screen.waitFor('› Restore from a file');
    expect(restore.calls.run).toBe(0);
  });

  it('? shows the help and Tab / Shift-Tab switch tabs as on every page, except while a file is typed', async () => {
    const restore = fakeOperation('restore', 'Restore from a file', { id: 'verify', label: 'Verify', state: 'ok', detail: 'done' });
    const screen = await renderApp(dashboard([restore.op]));
    await screen.press('2');
    await screen.waitFor('Press d for day 2');
    await screen.press('d');
    await screen.waitFor('› Restore from a file');

    // ? opens the help: the page's keys, those it keeps of the app's (no digits: it takes every key)
    await screen.press('?');
    const help = await screen.waitFor('next screen');
    expect(help).toContain('confirm: run it');
    expect(help).not.toContain('Everywhere');
    expect(help).not.toContain('go to screen');
    await screen.press('?');
    await screen.waitFor('› Restore from a file');

    // Tab goes to the next tab, Shift-Tab back to the Day 2 page, still open
    await screen.press(KEYS.tab);
    const next = await screen.waitFor((f) => !f.includes('› Restore from a file'));
    expect(next).not.toContain('Day 2');
    await screen.press(KEYS.shiftTab);
    await screen.waitFor('› Restore from a file');

    // While the file is typed, ? is a character of it and Tab stays on the page
    await screen.press(KEYS.enter);
    await screen.waitFor('/backups/restore.yaml');
    await screen.press('?', KEYS.tab);
    const typing = await screen.waitFor('/backups/restore.yaml?');
    expect(typing).not.toContain('Everywhere');
    expect(typing).toContain('Backup file:');
    await screen.press(KEYS.enter);
    await screen.waitFor('Press enter to run it.');
    expect(restore.calls.plan).toEqual([{ file: '/backups/restore.yaml?' }]);
  });
});
