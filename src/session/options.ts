import { UsageError } from '../errors.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../output/formats.js';

/** Options every command understands (commander's optsWithGlobals). */
export interface GlobalOptions {
  kubeconfig?: string;
  /** --fleet: the recorded fleet of the run (src/config/fleets.ts). */
  fleet?: string;
  context?: string[];
  output?: OutputFormat;
  readOnly?: boolean;
  color?: boolean;
  ascii?: boolean;
  sandbox?: boolean;
  hostingContext?: string;
  controlPlaneContext?: string;
  namespace?: string;
  watch?: boolean;
  /** --request-timeout in ms (0: none). */
  requestTimeout?: number;
  /** --log-lines: lines the log view keeps per pod. */
  logLines?: number;
  /** --warn-days: certificates expiring within this many days are flagged (Certificates view, status row). */
  warnDays?: number;
}

/** Colours are off with --no-color, NO_COLOR (any value) or a dumb terminal. */
export function colorEnabled(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  return opts.color !== false && !('NO_COLOR' in env && env.NO_COLOR !== undefined) && env.TERM !== 'dumb';
}

/** ASCII symbols with --ascii, or when the locale is not UTF-8. */
export function asciiOnly(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  if (opts.ascii) return true;
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return locale !== '' && !/utf-?8/i.test(locale) && locale !== 'C.UTF-8';
}

export function requireOutput(value: string | undefined): OutputFormat {
  if (value === undefined) return 'text';
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`unknown output format "${value}"; use -o ${OUTPUT_FORMATS.join(', -o ')}`);
}
