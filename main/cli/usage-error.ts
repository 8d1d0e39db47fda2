/** A command line that cannot be run as typed (exit code 2); the message says how to fix it. */
export class UsageError extends Error {
  readonly code = 'usage';

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
