/**
 * docs/schemas/: every file is a valid JSON Schema of draft 2020-12 (strict: no keyword ajv does
 * not know, no required property left undefined), and every one is checked against real output by
 * at least one test of a command (`expectMatchesSchema(…, 'name')`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSchema, schemaNames, schemaValidator } from '../helpers/schema.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/**
 * The schema names each test file checks output against: the tests of the commands (their real
 * output), not test/docs, whose checks of report functions do not count.
 */
function called(): Map<string, string[]> {
  const by = new Map<string, string[]>();
  const self = path.join(ROOT, 'test/helpers/schema.ts');
  for (const file of testFiles(path.join(ROOT, 'test'))) {
    if (file === self || file.startsWith(path.join(ROOT, 'test/docs/'))) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/expectMatchesSchema\(\s*[\s\S]*?,\s*'([a-z-]+)'\s*\)/g)) {
      const list = by.get(m[1]!) ?? [];
      list.push(path.relative(ROOT, file));
      by.set(m[1]!, list);
    }
  }
  return by;
}

describe('docs/schemas', () => {
  const names = schemaNames();

  it('holds the schemas of every command with -o json', () => {
    expect(names.length).toBeGreaterThan(0);
    for (const f of fs.readdirSync(path.join(ROOT, 'docs/schemas')))
      expect(f, 'only <name>.schema.json files').toMatch(/^[a-z-]+\.schema\.json$/);
  });

  it.each(names)('%s: a valid schema of draft 2020-12', (name) => {
    const schema = readSchema(name);
    expect(schema.$schema).toBe(DRAFT);
    expect(typeof schema.title).toBe('string');
    expect(typeof schema.description).toBe('string');
    const ajv = schemaValidator();
    expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).toBe(true);
    // Compiling in strict mode also refuses unknown keywords and required properties never defined.
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it.each(names)('%s: checked against output by a test', (name) => {
    const files = called().get(name) ?? [];
    expect(files, `no test calls expectMatchesSchema(…, '${name}')`).not.toEqual([]);
  });

  it('every schema a test names exists', () => {
    const calls = called();
    expect(calls.size, 'no test calls expectMatchesSchema').toBeGreaterThan(0);
    for (const [name, files] of calls) expect(names, `${files.join(', ')} names ${name}`).toContain(name);
  });
});
