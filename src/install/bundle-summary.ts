/**
 * What an install bundle is, said on the plan: its name, where it comes from, whether it is the
 * reference bundle shipped with fleetdeck, and every image it will run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Bundle, DEFAULT_BUNDLE_DIR } from './bundle.js';
import { bundleImages } from './bundle-images.js';
import { overlayLine } from './bundle-overlays.js';

export { bundleImages } from './bundle-images.js';

/** The bundle as the plan names it (`-o json`: `bundle`). */
export interface BundleSummary {
  /** `fleetdeck reference bundle`, or the directory's name (`nova-v0.8.0/install` for an `install/` directory). */
  name: string;
  /** `built-in`, or the directory given with `--bundle` (absolute). */
  source: string;
  /** The reference control plane shipped with fleetdeck (not a Nova release). */
  reference: boolean;
  /** Every container image it runs, in manifest order, each once. */
  images: string[];
  /** The overlays applied (`overlays/cp-ha`, `overlays/workload-cluster-1`) with their kustomization fields; empty or absent for the built-in bundle. */
  overlays?: { name: string; fields: string[] }[];
}

export const REFERENCE_NAME = 'fleetdeck reference bundle';

const realpath = (p: string) => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

/** Whether `dir` is the bundle shipped with fleetdeck. */
export function isReferenceBundle(dir: string): boolean {
  return realpath(dir) === realpath(DEFAULT_BUNDLE_DIR);
}

/** The bundle's summary for the plan. */
export function summarizeBundle(bundle: Bundle): BundleSummary {
  const reference = isReferenceBundle(bundle.source);
  const base = path.basename(bundle.source);
  const name = reference ? REFERENCE_NAME : base === 'install' ? `${path.basename(path.dirname(bundle.source))}/install` : base;
  return {
    name,
    source: reference ? 'built-in' : bundle.source,
    reference,
    images: bundleImages([bundle.service, ...bundle.controlPlane, ...bundle.crds, ...bundle.agent]),
    ...(bundle.overlays?.length ? { overlays: bundle.overlays } : {}),
  };
}

/** What the reference bundle is, in one sentence (the agent image it names included). */
export function referenceNote(summary: BundleSummary): string {
  const agent = summary.images.find((i) => /nova-agent/.test(i));
  return (
    'the reference control plane shipped with fleetdeck, not a Nova release: upstream Kubernetes images, ' +
    `kube-scheduler as a stand-in for nova-scheduler${agent ? `, and the agent image ${agent}` : ''}`
  );
}

/** The line said before the reference bundle goes to clusters that are not the sandbox. */
export function referenceWarning(contexts: readonly string[]): string {
  return (
    `the reference bundle would be installed on ${contexts.join(', ')}, which ${contexts.length > 1 ? 'are' : 'is'} not the fleetdeck sandbox: ` +
    "for a Nova release, pass --bundle DIR with the release's install/ directory"
  );
}

/** The plan's bundle lines: name and source, what the reference bundle is, the images. */
export function bundleLines(summary: BundleSummary): string[] {
  return [
    `Bundle: ${summary.name} (${summary.reference ? 'built-in' : summary.source})`,
    ...(summary.reference ? [`        ${referenceNote(summary)}.`] : []),
    ...(summary.images.length ? summary.images : ['none']).map((image, i) => `${i === 0 ? 'Images:' : '       '} ${image}`),
    ...(summary.overlays ?? []).map((o, i) => `${i === 0 ? 'Overlays:' : '         '} ${overlayLine(o)}`),
  ];
}
