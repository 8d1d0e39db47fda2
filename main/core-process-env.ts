/**
 * The environment a core process starts with. Set before the process starts because glibc reads
 * its malloc settings only then.
 *
 * Every render copies the canvas's pixels into a fresh 4.7 MB buffer (@napi-rs/canvas offers no
 * way to read them into one we keep) that is freed only when V8 collects it. With glibc's
 * defaults such blocks are mapped and unmapped, or trimmed off the heap, again and again, and
 * come back as fresh memory: on a virtual machine the copy then took 10–13 ms in some processes
 * instead of 0.4 ms (with the same page-fault counts: the cost lies outside the guest). Keeping
 * blocks under 32 MiB on the heap and the heap untrimmed below 256 MiB makes the copy cheap every
 * time (`npm run bench`). Other C libraries ignore these variables; values already set win.
 */
export const CORE_MALLOC_ENV = {
  MALLOC_MMAP_THRESHOLD_: String(32 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(256 * 1024 * 1024),
} as const;

export function coreProcessEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...CORE_MALLOC_ENV, ...base };
}

/** True when this process started with the core's malloc settings. */
export function hasCoreProcessEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return Object.keys(CORE_MALLOC_ENV).every((name) => env[name] !== undefined);
}
