import { execFileSync } from 'node:child_process';

/** Whether kubectl is on PATH (tests that render kustomizations with it are skipped without). */
export const hasKubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
})();
