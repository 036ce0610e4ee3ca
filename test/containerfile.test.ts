import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/paths.js';

/** The Containerfile's instructions, one per entry (continuation lines joined, comments dropped). */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op = '', ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  engines: { node: string };
  files: string[];
  devDependencies: Record<string, string>;
};
const steps = instructions(fs.readFileSync(path.join(PACKAGE_ROOT, 'Containerfile'), 'utf8'));
const stages: { op: string; args: string }[][] = [];
for (const s of steps) {
  if (s.op === 'FROM') stages.push([]);
  stages[stages.length - 1]?.push(s);
}
const build = stages[0] ?? [];
const runtime = stages[stages.length - 1] ?? [];
const major = (spec: string) => Number(/(\d+)/.exec(spec)?.[1]);

describe('the runner image (Containerfile)', () => {
  it('builds in one stage and runs in another, on the Node.js major the project builds with and its engines allow', () => {
    expect(stages.length).toBe(2);
    const images = stages.map((s) => s[0]?.args.split(/\s+/)[0] ?? '');
    for (const image of images) expect(image).toMatch(/^(node:\d+-slim|gcr\.io\/distroless\/nodejs\d+-debian\d+(:[\w.-]+)?)$/);
    const imageMajors = images.map((i) => major(i.replace(/^gcr\.io\/distroless\/nodejs/, 'node:')));
    // The same major as the Node.js the npm scripts run (the `node` dev dependency) …
    expect(imageMajors).toEqual(images.map(() => major(pkg.devDependencies.node ?? '')));
    // … and one engines.node accepts (`>=22.12` and the like: at least the lowest major named).
    expect(pkg.engines.node).toMatch(/^>=\s*\d+/);
    for (const m of imageMajors) expect(m).toBeGreaterThanOrEqual(major(pkg.engines.node));
  });

  it('builds with every dependency, runs with production dependencies only', () => {
    const runs = (stage: typeof build) => stage.filter((s) => s.op === 'RUN').map((s) => s.args);
    expect(runs(build)).toEqual(expect.arrayContaining(['npm ci', 'npm run build']));
    expect(runs(runtime).join(' && ')).toMatch(/npm ci --omit=dev\b/);
    expect(runs(runtime).join(' ')).not.toMatch(/npm run build/);
  });

  it('starts the bundle package.json names as the fleetdeck command, built from the entry point src/build.ts bundles', () => {
    const bin = pkg.bin.fleetdeck ?? '';
    expect(runtime.find((s) => s.op === 'ENTRYPOINT')?.args).toBe(JSON.stringify(['node', `/app/${bin}`]).replace(/,/g, ', '));
    expect(bin).toMatch(/^dist\/(.+)\.js$/);
    const entry = `src/${/^dist\/(.+)\.js$/.exec(bin)?.[1]}.ts`;
    const buildScript = fs.readFileSync(path.join(PACKAGE_ROOT, 'src', 'build.ts'), 'utf8');
    expect(buildScript).toContain(`'${entry}'`);
    expect(fs.existsSync(path.join(PACKAGE_ROOT, entry))).toBe(true);
    expect(runtime.some((s) => s.op === 'COPY' && s.args === '--from=build /src/dist ./dist')).toBe(true);
    expect(runtime.some((s) => s.op === 'WORKDIR' && s.args === '/app')).toBe(true);
  });

  it('copies the data files the package ships next to the bundle (all but the sandbox’s test bed script)', () => {
    // The bundle (dist, less what `!` leaves out of the package) comes from the build stage.
    const data = pkg.files.filter((f) => f !== 'dist' && !f.startsWith('!') && f !== 'src/sandbox/prepare-testbed.sh');
    expect(data.length).toBeGreaterThan(0);
    for (const f of data) {
      expect(runtime.some((s) => s.op === 'COPY' && s.args === `${f} ./${f}`)).toBe(true);
      expect(fs.existsSync(path.join(PACKAGE_ROOT, f))).toBe(true);
    }
  });

  it('runs as a numeric non-root user', () => {
    const user = runtime.filter((s) => s.op === 'USER').at(-1)?.args ?? '';
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(Number(user.split(':')[0])).toBeGreaterThan(0);
  });
});
