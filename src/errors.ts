/** A mistake in what the user typed: printed as one line, exit code 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** Something the user can fix (a missing file, an unknown context): one line, exit code 1 unless given. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
