import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The project's own layer rules (.dependency-cruiser.cjs), run on a small tree that breaks them. */
async function cruiseFixtures(): Promise<IViolation[]> {
  const { default: config } = await import(path.join(root, '.dependency-cruiser.cjs'));
  const cwd = process.cwd();
  process.chdir(path.join(root, 'test/fixtures/layers'));
  try {
    const result = await cruise(['src'], {
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      tsPreCompilationDeps: true,
      parser: 'swc',
      doNotFollow: { path: 'node_modules' },
      enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
    });
    if (typeof result.output === 'string') throw new Error(result.output);
    return result.output.summary.violations;
  } finally {
    process.chdir(cwd);
  }
}

let cruised: Promise<IViolation[]> | undefined;

/** The fixture tree's violations, cruised once for every test. */
function violations(): Promise<IViolation[]> {
  cruised ??= cruiseFixtures();
  return cruised;
}

/** Every violation as `rule: from → to`. */
async function found(): Promise<string[]> {
  return (await violations()).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

describe('the layer rules (npm run lint)', () => {
  it('refuse src/kube importing the store, and a workflow calling client-node; allow type imports', async () => {
    const found = (await violations()).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(found).toContain('kube-imports-nothing-above: src/kube/nodes.ts → src/store/state.ts');
    expect(found.some((v) => v.startsWith('client-node-only-in-kube: src/rollout/drain.ts → '))).toBe(true);
    // Type-only imports of a kube summary or a client-node type are allowed, from a screen too.
    expect(found.filter((v) => v.includes('src/screens/view.ts'))).toEqual([]);
    // (The file's path, not its name alone: the rule store-holds-workflow-types-only has it too.)
    expect(found.filter((v) => v.includes('src/kube/types-only.ts'))).toEqual([]);
  });

  it('refuse src/kube importing any part of src above it, named in no list; allow it the errors and the duration formatter', async () => {
    expect(await found()).toContain('kube-imports-nothing-above: src/kube/apply.ts → src/program/options.ts');
    expect((await found()).filter((v) => v.startsWith('kube-imports-nothing-above: src/kube/apply.ts → '))).toEqual([
      'kube-imports-nothing-above: src/kube/apply.ts → src/program/options.ts',
    ]);
  });

  it("refuse a screen using a workflow's code; allow a screen importing a workflow's types", async () => {
    expect(await found()).toContain('screens-import-no-workflow-values: src/screens/rollout-rows.ts → src/rollout/view.ts');
    // src/screens/view.ts imports the RolloutView type of the same module: allowed.
    expect((await found()).filter((v) => v.includes('src/screens/view.ts'))).toEqual([]);
  });

  it('refuse a workflow importing from src/report, even a type', async () => {
    expect(await found()).toContain('workflows-import-nothing-from-report: src/day2/restore.ts → src/report/backup.ts');
  });

  it('refuse a workflow reading the store', async () => {
    expect(await found()).toContain('workflows-below-feeds-and-screens: src/install/wizard-state.ts → src/store/state.ts');
  });

  it("refuse the store starting a feed, or holding a workflow's code", async () => {
    expect(await found()).toContain('store-below-feeds-and-screens: src/store/ui.ts → src/feeds/nodes-feed.ts');
    expect(await found()).toContain('store-holds-workflow-types-only: src/store/rollouts.ts → src/rollout/view.ts');
  });

  it('refuse a screen calling src/kube, a component reading the store, a feed importing a screen', async () => {
    expect(await found()).toContain('screens-select-and-dispatch: src/screens/status.ts → src/kube/nodes.ts');
    expect(await found()).toContain('components-are-generic: src/components/table.ts → src/store/state.ts');
    expect(await found()).toContain('feeds-below-screens: src/feeds/nodes-feed.ts → src/screens/status.ts');
  });

  it('refuse the checklist and the duration formatter importing from src; allow the checklist the duration formatter', async () => {
    expect(await found()).toContain('checklist-is-a-leaf: src/checklist/checklist.ts → src/store/state.ts');
    expect((await found()).filter((v) => v.endsWith('src/checklist/checklist.ts → src/duration.ts'))).toEqual([]);
    expect(await found()).toContain('duration-is-a-leaf: src/duration.ts → src/store/state.ts');
  });

  it('refuse an import cycle', async () => {
    expect((await found()).some((v) => v.startsWith('no-cycles: src/config/fleet-'))).toBe(true);
  });
});
