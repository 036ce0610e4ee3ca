/**
 * Every relative link of README.md and docs/ leads somewhere: to a file or folder that exists,
 * and, with an anchor, to a heading of that page (GitHub's anchors, duplicates numbered).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { headings, links, markdownFiles, ROOT, read } from './markdown.js';

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

function anchorsOf(file: string): Set<string> {
  return new Set(headings(read(file)).map((h) => h.slug));
}

describe('links of the README and docs/', () => {
  it.each(markdownFiles())('%s: every relative link and anchor exists', (file) => {
    const broken: string[] = [];
    for (const link of links(read(file))) {
      if (external(link.target)) continue;
      const [target = '', anchor] = link.target.split('#') as [string, string | undefined];
      const resolved = target === '' ? file : path.join(path.dirname(file), decodeURIComponent(target));
      if (!fs.existsSync(path.join(ROOT, resolved))) {
        broken.push(`line ${link.line}: ${link.target} (no ${resolved})`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
        broken.push(`line ${link.line}: ${link.target} (no heading #${anchor} in ${resolved})`);
    }
    expect(broken).toEqual([]);
  });

  it('the slugs are GitHub’s', async () => {
    const { slugOf } = await import('./markdown.js');
    expect(slugOf('Output for scripts (`-o json|yaml`)')).toBe('output-for-scripts--o-jsonyaml');
    expect(slugOf('`fleetdeck` — the dashboard')).toBe('fleetdeck--the-dashboard');
    expect(slugOf('`--rotate-ca`: new CAs with a trust hand-over')).toBe('--rotate-ca-new-cas-with-a-trust-hand-over');
    expect(slugOf('The Certificates view (`C`)')).toBe('the-certificates-view-c');
  });
});
