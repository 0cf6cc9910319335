/** Thrown for a command line that cannot be used; the command runner prints it with a pointer to `--help`, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
