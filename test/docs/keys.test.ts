/** docs/keys.md is what `npm run docs:keys` writes now from the screens' key tables. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYS_FILE, keysMarkdown } from '../../src/docs/keys.js';
import { registry } from '../../src/dashboard/registry.js';
import { ROOT } from './markdown.js';

describe('docs/keys.md', () => {
  const written = fs.readFileSync(path.join(ROOT, KEYS_FILE), 'utf8');

  it('is the generator’s output (run npm run docs:keys after changing a key table)', () => {
    expect(written).toBe(keysMarkdown());
  });

  it('has a section for every tab and overlay of the registry', () => {
    const { tabs, overlays } = registry();
    expect(tabs.length).toBeGreaterThan(0);
    expect(overlays.length).toBeGreaterThan(0);
    for (const [i, t] of tabs.entries()) expect(written).toContain(`\n## ${i + 1} ${t.title}\n`);
    for (const o of overlays) expect(written).toContain(`\n## Over any tab: ${o.id}`);
  });
});
