/**
 * The JSON Schemas of `-o json` (docs/schemas/<name>.schema.json, draft 2020-12), for the tests
 * that read a command's real output: `expectMatchesSchema(JSON.parse(r.stdout), 'status')`.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
// CommonJS packages: their default export is the module itself.
const Ajv2020 = require('ajv/dist/2020') as typeof import('ajv/dist/2020.js').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

export const SCHEMA_DIR = path.resolve(import.meta.dirname, '../../docs/schemas');

/** The schemas there are, by name (`status` for status.schema.json). */
export function schemaNames(): string[] {
  return fs
    .readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => f.replace(/\.schema\.json$/, ''))
    .sort();
}

export function readSchema(name: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
}

/** A validator of draft 2020-12 with the formats (date-time…), strict about the schemas themselves. */
export function schemaValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv;
}

const compiled = new Map<string, ValidateFunction>();

function validatorOf(name: string): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    v = schemaValidator().compile(readSchema(name));
    compiled.set(name, v);
  }
  return v;
}

const said = (errors: readonly ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || '(top)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);

/** Fails the test with every place `value` departs from docs/schemas/<name>.schema.json. */
export function expectMatchesSchema(value: unknown, name: string): void {
  const validate = validatorOf(name);
  validate(value);
  expect(said(validate.errors), `${name}.schema.json`).toEqual([]);
}
