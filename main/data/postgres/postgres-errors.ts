/** SQLSTATE codes Render Desk reacts to (PostgreSQL appendix A). */
const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';
const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';

function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** A statement broke a UNIQUE or PRIMARY KEY constraint (optionally: this index). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlState(error) !== UNIQUE_VIOLATION) return false;
  return constraint === undefined || (error as { constraint?: unknown }).constraint === constraint;
}

export function isCheckViolation(error: unknown): boolean {
  return sqlState(error) === CHECK_VIOLATION;
}

/** The transaction lost a race it can win by running again from the start. */
export function isRetryableTransactionError(error: unknown): boolean {
  const state = sqlState(error);
  return state === SERIALIZATION_FAILURE || state === DEADLOCK_DETECTED;
}
