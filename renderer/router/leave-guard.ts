/**
 * A screen with unsaved work (the editor) registers a guard; in-app navigation asks it first.
 * The guard returns true when it holds the navigation back (it then shows its own question and
 * calls `proceed` if the user chooses to leave).
 */
export type LeaveGuard = (proceed: () => void) => boolean;

let guard: LeaveGuard | null = null;

export function setLeaveGuard(next: LeaveGuard | null): void {
  guard = next;
}

/** True when navigation may go ahead now. */
export function mayLeave(proceed: () => void): boolean {
  return guard ? !guard(proceed) : true;
}
