/**
 * Calls `gone` once when the process that started this one has exited. `npm run serve` starts
 * us through a shell that does not pass SIGTERM on: stopping npm (a service manager, `docker
 * stop`, `kill`) kills the shell and leaves this process running, orphaned, with no graceful stop.
 * An orphan is re-parented (to init or a subreaper), so its parent id changes. On Windows the id
 * stays the one it was started with: nothing is called there.
 */
export function watchLauncher(gone: () => void, everyMs = 250): () => void {
  const launcher = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === launcher) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  // Never what keeps the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
