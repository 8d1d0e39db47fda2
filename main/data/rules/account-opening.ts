/** Opening an account with its first credits, once ever, the same in both stores. */

/** The setting that marks the account opened: its balance is never granted again. */
export const ACCOUNT_INITIALISED_SETTING = 'account.initialised';

export function checkOpeningCredits(openingCredits: number): void {
  if (!Number.isSafeInteger(openingCredits) || openingCredits < 0) {
    throw new RangeError(
      `The opening balance must be a whole number of credits, not ${openingCredits}.`,
    );
  }
}
