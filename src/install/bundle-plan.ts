/** The bundle on the install's plan: what it is, and the clusters outside the sandbox the reference bundle would go to. */
import type { Bundle } from './bundle.js';
import { type BundleSummary, summarizeBundle } from './bundle-summary.js';
import type { Target } from './plan.js';
import { isSandboxContext, sandboxDirsFor } from '../sandbox/recognise.js';

export interface BundlePlan extends BundleSummary {
  /** With the reference bundle: the contexts of the install that are not the sandbox (asked about). */
  notSandbox?: string[];
}

/** The bundle's summary, and with the reference bundle the targets that are not the sandbox. */
export function bundlePlan(bundle: Bundle, targets: readonly Target[], kubeconfigFiles: readonly string[]): BundlePlan {
  const summary = summarizeBundle(bundle);
  if (!summary.reference) return summary;
  const dirs = sandboxDirsFor(kubeconfigFiles);
  return { ...summary, notSandbox: targets.filter((t) => !isSandboxContext(t.kc, dirs)).map((t) => t.context) };
}

/** Whether the plan must ask before installing: the reference bundle on a cluster that is not the sandbox. */
export const asksAboutReference = (p: BundlePlan): p is BundlePlan & { notSandbox: string[] } => (p.notSandbox?.length ?? 0) > 0;
