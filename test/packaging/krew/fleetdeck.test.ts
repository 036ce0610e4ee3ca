import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../../../src/paths.js';

const MANIFEST = path.join(PACKAGE_ROOT, 'src', 'packaging', 'krew', 'fleetdeck.yaml');
const template = fs.readFileSync(MANIFEST, 'utf8');
const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  files: string[];
  engines: { node: string };
};

interface Platform {
  selector: { matchExpressions?: { key: string; operator: string; values: string[] }[]; matchLabels?: Record<string, string> };
  uri: string;
  sha256: string;
  bin: string;
  files?: { from: string; to: string }[];
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: { version: string; homepage: string; shortDescription: string; description: string; caveats: string; platforms: Platform[] };
}

/** The template with its placeholders filled as a release fills them (README, "Install"). */
function filled(values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (m, key: string) => values[key] ?? m);
}

const release = {
  VERSION: pkg.version,
  RELEASE_URL: 'https://example.com/fleetdeck/releases/download/v1',
  SHA256: 'a'.repeat(64),
  HOMEPAGE: 'https://example.com/fleetdeck',
};

describe('the krew plugin manifest template (src/packaging/krew/fleetdeck.yaml)', () => {
  const m = parse(template) as Manifest;

  it('is a krew v1alpha2 Plugin named as its file, so krew links it as kubectl-fleetdeck', () => {
    expect(m.apiVersion).toBe('krew.googlecontainertools.github.com/v1alpha2');
    expect(m.kind).toBe('Plugin');
    expect(m.metadata.name).toBe('fleetdeck');
    expect(path.basename(MANIFEST)).toBe(`${m.metadata.name}.yaml`);
    expect(pkg.bin[`kubectl-${m.metadata.name}`]).toBeDefined();
  });

  it('has the fields krew requires: a short description of a few words, a description, caveats naming the Node it needs', () => {
    expect(m.spec.shortDescription.length).toBeGreaterThan(0);
    expect(m.spec.shortDescription.length).toBeLessThanOrEqual(50);
    expect(m.spec.description.trim().length).toBeGreaterThan(0);
    const minimum = /^>=\s*(\d+\.\d+)/.exec(pkg.engines.node)?.[1];
    expect(minimum).toBeDefined();
    expect(m.spec.caveats).toContain(`\`node\` ${minimum} or newer`);
  });

  it("installs the npm tarball on Linux and macOS, krew's bin being the package's kubectl-fleetdeck bin", () => {
    expect(m.spec.platforms.length).toBeGreaterThan(0);
    for (const p of m.spec.platforms) {
      const os = p.selector.matchExpressions?.find((e) => e.key === 'os');
      expect(os?.operator).toBe('In');
      expect(os?.values.sort()).toEqual(['darwin', 'linux']);
      // `npm pack` names the tarball NAME-VERSION.tgz and puts its files under package/.
      expect(p.uri).toBe(`{{RELEASE_URL}}/${pkg.name}-{{VERSION}}.tgz`);
      expect(p.sha256).toBe('{{SHA256}}');
      expect(p.files).toBeUndefined();
      expect(p.bin).toBe(`package/${pkg.bin['kubectl-fleetdeck']}`);
    }
  });

  it('names a bin the package ships: built by src/build.ts into dist/, which package.json files takes', () => {
    const bin = pkg.bin['kubectl-fleetdeck'] ?? '';
    expect(bin).toMatch(/^dist\/[\w-]+\.js$/);
    expect(pkg.files).toContain('dist');
    expect(pkg.files.filter((f) => f.startsWith('!')).some((f) => bin.startsWith(f.slice(1)))).toBe(false);
    const entry = `src/${/^dist\/(.+)\.js$/.exec(bin)?.[1]}.ts`;
    expect(fs.existsSync(path.join(PACKAGE_ROOT, entry))).toBe(true);
    expect(fs.readFileSync(path.join(PACKAGE_ROOT, 'src', 'build.ts'), 'utf8')).toContain(`'${entry}'`);
  });

  it('once filled, has no placeholder left and a version and checksum of the form krew accepts', () => {
    const text = filled(release);
    expect(text).not.toMatch(/\{\{|\}\}/);
    const done = parse(text) as Manifest;
    expect(done.spec.version).toBe(`v${pkg.version}`);
    expect(done.spec.version).toMatch(/^v\d+\.\d+\.\d+(-[\w.]+)?$/);
    expect(done.spec.homepage).toBe(release.HOMEPAGE);
    for (const p of done.spec.platforms) {
      expect(p.uri).toBe(`${release.RELEASE_URL}/${pkg.name}-${pkg.version}.tgz`);
      expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});
