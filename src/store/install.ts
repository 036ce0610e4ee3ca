/**
 * The Install tab's slice: whether the wizard's dependencies (the bundle, the kubeconfig) are
 * being loaded, are there (the wizard is open), or could not be loaded. The wizard's own state
 * is its screen's.
 */
export interface InstallSlice {
  wizard: 'closed' | 'loading' | 'open' | { error: string };
}

export const emptyInstall = (): InstallSlice => ({ wizard: 'closed' });
