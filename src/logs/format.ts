/** How a log line is printed: `context/pod/container` prefix in the source's colour, a JSON object or a YAML document. */
import { type OutputFormat, streamItem } from '../output/format.js';

/** Where a line comes from. */
export interface LogSource {
  context: string;
  namespace: string;
  pod: string;
  container: string;
}

export interface FormatOptions {
  output: OutputFormat;
  /** --timestamps: the runtime's RFC 3339 stamp after the prefix. */
  timestamps: boolean;
  color: boolean;
}

/** Foreground colours that read on dark and light terminals (red, used for errors, left out). */
const COLORS = [32, 33, 34, 35, 36, 92, 93, 94, 95, 96] as const;

/** FNV-1a: the same source gets the same colour in every run. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export const sourceKey = (s: LogSource): string => `${s.context}/${s.namespace}/${s.pod}/${s.container}`;

/** The prefix of every text line: always `context/pod/container`, so merged output is unambiguous. */
export function prefix(s: LogSource): string {
  return `${s.context}/${s.pod}/${s.container}`;
}

/** The ANSI colour code of a source (stable: a hash of context, namespace, pod and container). */
export function sourceColor(s: LogSource): number {
  return COLORS[hash(sourceKey(s)) % COLORS.length]!;
}

/** One printed line (without its newline). */
export function formatLine(s: LogSource, time: string, text: string, o: FormatOptions): string {
  if (o.output !== 'text') {
    return streamItem(o.output, { context: s.context, namespace: s.namespace, pod: s.pod, container: s.container, time, line: text });
  }
  const p = o.color ? `\u001b[${sourceColor(s)}m${prefix(s)}\u001b[0m` : prefix(s);
  return o.timestamps && time ? `${p} ${time} ${text}` : `${p} ${text}`;
}
