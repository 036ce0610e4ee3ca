import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The limit on a source or test file, in raw lines: blank lines and comments count too. */
const MAX_LINES = 400;

/**
 * Lines as `wc -l` counts them: the newlines. Biome's own limit skips blank lines and comments,
 * so a file can pass it and still be over.
 */
function rawLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The TypeScript files of src and test: tracked, and new ones not yet added (but not ignored).
 * The `:(glob)` magic lets `src/**` match files at any depth, src/cli.ts included.
 */
function sourceFiles(): string[] {
  const specs = ['src/**/*.ts', 'src/**/*.tsx', 'test/**/*.ts', 'test/**/*.tsx'].map((p) => `:(glob)${p}`);
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...specs], {
    cwd: root,
    encoding: 'utf8',
  });
  // A tracked file deleted in the working tree is still listed by --cached.
  return [...new Set(out.split('\n').filter(Boolean))].filter((f) => existsSync(path.join(root, f)));
}

/** Every file over the limit, as `path: N lines`. */
function overLimit(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((f) => {
    const n = rawLines(read(f));
    return n > MAX_LINES ? [`${f}: ${n} lines`] : [];
  });
}

describe(`the file size limit (${MAX_LINES} raw lines)`, () => {
  it('counts lines as wc -l does, and names a file one line over', () => {
    const lines = (n: number) => 'x;\n'.repeat(n);
    expect(rawLines('')).toBe(0);
    expect(rawLines('a')).toBe(0);
    expect(rawLines('\n\n// comment\n')).toBe(3);
    expect(rawLines(lines(401))).toBe(401);
    const files: Record<string, string> = { 'src/a.ts': lines(400), 'src/b.ts': lines(401), 'test/c.ts': '\n'.repeat(401) };
    expect(overLimit(Object.keys(files), (f) => files[f] ?? '')).toEqual(['src/b.ts: 401 lines', 'test/c.ts: 401 lines']);
  });

  it('finds the files of src and test', () => {
    const files = sourceFiles();
    expect(files).toContain('src/cli.ts');
    expect(files).toContain('test/file-size.test.ts');
    expect(files.some((f) => f.endsWith('.tsx'))).toBe(true);
  });

  it('holds every file of src and test, src/bench and test/bench included', () => {
    expect(overLimit(sourceFiles(), (f) => readFileSync(path.join(root, f), 'utf8'))).toEqual([]);
  });
});
