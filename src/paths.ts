import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root: the nearest directory above this module holding package.json. The same
 * answer whether the code runs from src/ (tests), from dist/ or from one of dist's chunks.
 */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export const PACKAGE_ROOT = packageRoot();

/** The built command, for the processes fleetdeck starts itself (the sandbox supervisor). */
export const CLI_PATH = path.join(PACKAGE_ROOT, 'dist', 'cli.js');

/** Built entry points other than the command (benchmark children). */
export function distPath(...parts: string[]): string {
  return path.join(PACKAGE_ROOT, 'dist', ...parts);
}
