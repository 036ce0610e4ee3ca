import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Linted {
  status: number | null;
  /** Each diagnostic as `rule (line)`, e.g. `vitest(expect-expect) (5)`. */
  found: string[];
}

/** The tests' lint rules (.oxlintrc.tests.jsonc, run on test/ by npm run lint) on one fixture of test/fixtures/assertions. */
function lint(fixture: string): Linted {
  const oxlint = path.join(root, 'node_modules/.bin/oxlint');
  const file = path.join('test/fixtures/assertions', fixture);
  const r = spawnSync(oxlint, ['-c', '.oxlintrc.tests.jsonc', '--deny-warnings', '-f', 'json', file], { cwd: root, encoding: 'utf8' });
  if (r.error) throw r.error;
  const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: { code: string; labels: { span: { line: number } }[] }[] };
  return { status: r.status, found: diagnostics.map((d) => `${d.code} (${d.labels[0]?.span.line})`) };
}

describe('the assertion rules (npm run lint, on test/)', () => {
  it('refuse a test with no assertion', () => {
    expect(lint('no-assertion.ts')).toEqual({ status: 1, found: ['vitest(expect-expect) (5)'] });
  });

  it('refuse a test whose only assertion is in a branch that may not run', () => {
    expect(lint('conditional-assertion.ts')).toEqual({ status: 1, found: ['vitest(no-conditional-expect) (8)'] });
  });

  it('refuse an expect with no matcher called, and an async matcher not awaited', () => {
    expect(lint('unawaited-assertion.ts')).toEqual({ status: 1, found: ['vitest(valid-expect) (6)', 'vitest(valid-expect) (10)'] });
  });

  it("pass tests that assert: with expect and vitest's message, through a listed helper, awaited", () => {
    expect(lint('asserts.ts')).toEqual({ status: 0, found: [] });
  });
});
