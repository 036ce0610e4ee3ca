import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECOND_SANDBOX } from './integration-groups.js';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the integration files of the second sandbox fleet', () => {
  it('are integration test files that exist, each named once (a name that is no file would run nowhere)', () => {
    expect(SECOND_SANDBOX.length).toBeGreaterThan(0);
    expect(new Set(SECOND_SANDBOX).size).toBe(SECOND_SANDBOX.length);
    expect(SECOND_SANDBOX.filter((f) => !f.endsWith('.int.test.ts') || !fs.existsSync(path.join(ROOT, f)))).toEqual([]);
  });
});
