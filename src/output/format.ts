/**
 * `-o text|json|yaml`: how every command prints what it has to say for scripts. JSON and YAML
 * carry the same object: the YAML is made from the JSON (a `Date` becomes the same string, an
 * `undefined` field is left out in both).
 *
 * A command prints either one whole result (`document`) or a stream of items, one per change
 * (`streamItem`): as JSON, one object per line; as YAML, one document per item with `---` between
 * documents, as `kubectl get -w -o yaml` prints them.
 */
import { stringify } from 'yaml';
import type { DataFormat } from './formats.js';

export { type DataFormat, OUTPUT_FORMATS, type OutputFormat } from './formats.js';

/** YAML documents this process has printed: the second and later start with `---`. */
let yamlDocuments = 0;

function yamlDocument(value: unknown): string {
  const plain: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
  // lineWidth 0: long strings (hints, messages) stay on one line, as in the JSON.
  const text = stringify(plain, { lineWidth: 0 }).replace(/\n$/, '');
  return yamlDocuments++ > 0 ? `---\n${text}` : text;
}

/** A whole result: indented JSON, or one YAML document. No trailing newline. */
export function document(format: DataFormat, value: unknown): string {
  return format === 'yaml' ? yamlDocument(value) : JSON.stringify(value, null, 2);
}

/** One item of a stream: a JSON object on one line, or a YAML document. No trailing newline. */
export function streamItem(format: DataFormat, value: unknown): string {
  return format === 'yaml' ? yamlDocument(value) : JSON.stringify(value);
}
