import path from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

/**
 * Ends the run with the ten slowest files (their tests and hooks, as vitest reports each file's
 * duration), then one plain line: "N passed, N failed, N skipped". Nothing skips quietly: a test
 * that did not run (skip, todo, skipped at run time, left out by `.only`) is one `skipped:` line
 * naming it, and the run fails (exit 1). Only a name filter (`-t`) leaves tests out on purpose.
 */
export default class SummaryReporter implements Reporter {
  private root = process.cwd();
  private nameFilter = false;

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.nameFilter = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    const skipped: TestCase[] = [];
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else skipped.push(t);
      }
    }
    const lines = [...slowest(modules, this.root, 10), ...skipped.map((t) => `skipped: ${this.describe(t)}`)];
    lines.push(`${passed} passed, ${failed} failed, ${skipped.length} skipped`);
    if (skipped.length && this.nameFilter) lines.push('(a -t name filter left tests out: the run does not fail for them)');
    else if (skipped.length) {
      lines.push(`the run fails: ${skipped.length} test${skipped.length === 1 ? ' was' : 's were'} skipped; every test must run`);
      process.exitCode = 1;
    }
    process.stdout.write(`\n${lines.join('\n')}\n`);
  }

  /** The test's file (from the root), its full name, and why it did not run. */
  private describe(t: TestCase): string {
    const r = t.result();
    const why = t.options.mode === 'todo' ? 'todo' : r.state === 'skipped' && r.note ? r.note : r.state === 'pending' ? 'not run' : '';
    return `${path.relative(this.root, t.module.moduleId)} > ${t.fullName}${why ? ` (${why})` : ''}`;
  }
}

/** "slowest: 151.1 s test/sandbox/sim/nova/placement.int.test.ts (integration)", the `n` slowest files first. */
export function slowest(modules: ReadonlyArray<TestModule>, root: string, n: number): string[] {
  return [...modules]
    .map((m) => ({ m, ms: m.diagnostic().duration }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map(({ m, ms }) => {
      const project = m.project.name ? ` (${m.project.name})` : '';
      return `slowest: ${(ms / 1000).toFixed(1).padStart(6)} s ${path.relative(root, m.moduleId)}${project}`;
    });
}
