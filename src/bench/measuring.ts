/**
 * What a measuring process (started by child.ts) shares: its arguments, and how it ends — its
 * result as one JSON line and exit 0, or `{"error"}` and exit 1.
 */

/** The value after `--name` on the command line (the bench gives every one). */
export function arg(name: string): string {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  if (!v) throw new Error(`missing ${name}`);
  return v;
}

export function printResult<T>(main: () => Promise<T>): void {
  main().then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stdout.write(`${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}\n`);
      process.exit(1);
    },
  );
}

/** Waits for `stop`, 5 s at most: a measurement does not hang on a feed that does not stop. */
export function stopWithin(stop: Promise<unknown> | unknown): Promise<unknown> {
  return Promise.race([stop, new Promise((r) => setTimeout(r, 5000))]);
}
