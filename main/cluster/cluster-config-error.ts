/** A cluster setting or service that makes starting unsafe; the message says what to change. */
export class ClusterConfigError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ClusterConfigError';
  }
}
