/**
 * Loaded into the core with `--import` when the supervisor starts it (the desktop shell, or
 * `npm start` headless). The supervisor holds the write end of the core's stdin; when it closes
 * (the supervisor quits, or died without a chance to say so) the core shuts down as on SIGTERM. Emitting the signal event instead of sending the
 * signal runs serve's graceful stop on Windows too, where a real SIGTERM cannot be caught.
 */
let requested = false;
const stop = (): void => {
  // Still starting (serve installs its signal handlers once listening): ask again shortly.
  if (process.listenerCount('SIGTERM') === 0) {
    setTimeout(stop, 200).unref();
    return;
  }
  if (requested) return;
  requested = true;
  process.emit('SIGTERM', 'SIGTERM');
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
process.stdin.resume();
// Reading stdin must not keep a core alive that has otherwise finished.
process.stdin.unref?.();
