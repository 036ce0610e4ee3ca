/** The values of `-o`: apart from the printing (./format.ts), so that parsing the command line loads no YAML library. */
export const OUTPUT_FORMATS = ['text', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/** The formats for scripts. */
export type DataFormat = Exclude<OutputFormat, 'text'>;
