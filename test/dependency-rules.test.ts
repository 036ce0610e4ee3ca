import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The project's own layer rules (.dependency-cruiser.cjs), run on a small tree that breaks them. */
async function violations(): Promise<IViolation[]> {
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

describe('the layer rules (npm run lint)', () => {
  it('refuse src/kube importing the store, and a workflow calling client-node; allow type imports', async () => {
    const found = (await violations()).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(found).toContain('kube-imports-nothing-above: src/kube/nodes.ts → src/store/state.ts');
    expect(found.some((v) => v.startsWith('client-node-only-in-kube: src/rollout/drain.ts → '))).toBe(true);
    // Type-only imports of a kube summary or a client-node type are allowed, from a screen too.
    expect(found.filter((v) => v.includes('src/screens/view.ts'))).toEqual([]);
    expect(found.filter((v) => v.includes('types-only'))).toEqual([]);
  });
});
