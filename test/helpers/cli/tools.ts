import { findExecutable } from '../../../src/kube/transport/credentials.js';

/**
 * The path of a program a test runs (kubectl, openssl, lsblk, zsh…). A test that needs one is never
 * skipped without it: this throws, failing the test with the reason. `npm test` installs them first
 * (`npm run testtools`: src/sandbox/test-tools.sh).
 */
export function requireTool(name: string): string {
  const file = findExecutable(name);
  if (!file) throw new Error(`${name} is not installed: the tests need it (npm run testtools installs it: src/sandbox/test-tools.sh)`);
  return file;
}
