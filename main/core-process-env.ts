/**
 * The environment and Node flags a core process starts with. Set before the process starts
 * because glibc reads its malloc settings, and V8 its flags, only then.
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

/**
 * V8 flags of a core process, measured through POST /v1/render with 2 workers on 2 cores:
 * - `--single-threaded-gc`: the render workers keep every core busy, so V8's helper threads
 *   (parallel scavenges, concurrent marking and sweeping) only take time from them. Per render,
 *   the helper threads used 1.5–2.5 ms of CPU for work the render threads then did in 0.4 ms.
 * - `--heap-growing-percent=300`: each image handed to the main thread is a new external buffer,
 *   and V8 counts external memory against the old generation's limit, so with the default
 *   growth the API thread ran a full mark-compact every ~60 renders (and then re-optimised the
 *   code that each one deoptimised). With room for 4 × the live heap, its CPU per render fell
 *   from ~1.4 to ~1.0 ms, for ~40 MB more resident memory under load.
 */
export const CORE_NODE_FLAGS = ['--single-threaded-gc', '--heap-growing-percent=300'] as const;

/**
 * V8 flags of a cluster node with `--role api`. It renders no batch, and what it streams is
 * bundles: a GET to the object store per output. Every GET leaves behind short-lived objects of
 * which ~10 % outlive two scavenges and are promoted, so the old generation fills with garbage at
 * a steady rate while a bundle streams. With `--heap-growing-percent=300` nothing collected it
 * before the old generation reached 4 × its live size, so the node's RSS climbed through the
 * download, the more the longer the bundle (20,000 outputs: peaks of 425, 480, 481, 521 MiB by
 * quarter). `--heap-growing-percent=50` lets the old generation grow to 1.5 × what survived the
 * last full GC: RSS then follows the live memory, not the bytes streamed.
 * Unlike render nodes it keeps V8's GC helper threads (no `--single-threaded-gc`): its one API
 * thread is what limits a download, and the more frequent collections ran on it. Streaming
 * 10,000 outputs from a local S3 server on 2 cores, the helper threads took the bundle from
 * 69.8–70.0 to 78.4–83.3 MiB/s (3 runs against 2, alternated) and the node from 12.1–12.3 to
 * 9.1–10.3 ms of CPU per MiB, with RSS as flat (peaks 332–344 MiB by quarter, within 3 %; across
 * 2,000, 10,000 and 20,000 outputs 323, 345, 340 MiB). Measured with
 * `BENCH_PARTS=bundle npm run bench:cluster`; figures in docs/cluster.md.
 * V8's own growth (no flag) and a larger young generation (`--max-semi-space-size=32`) were
 * tried too: both still let the old generation climb for most of a 10,000-output download.
 * Single renders on an API node keep the malloc settings (coreProcessEnv).
 */
export const API_NODE_FLAGS = ['--heap-growing-percent=50'] as const;

export type LaunchRole = 'api' | 'worker' | 'all';

/**
 * The role a core started with these arguments and this environment takes, read as the core
 * reads it (main/config.ts, main/cluster/cluster-config.ts): the last `--role` on the command
 * line, else RENDER_DESK_ROLE, else `all`. An embedded core (no cluster) counts as `all`: it
 * renders batches. A value the core will refuse also counts as `all`.
 */
export function launchRole(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): LaunchRole {
  let role: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const argument = args[i] ?? '';
    if (argument === '--') break;
    if (argument === '--role') role = args[++i];
    else if (argument.startsWith('--role=')) role = argument.slice('--role='.length);
  }
  role ??= env.RENDER_DESK_ROLE;
  return role === 'api' || role === 'worker' ? role : 'all';
}

/** The V8 flags for a core of this role: render-tuned unless it is an API-only node. */
export function coreNodeFlags(role: LaunchRole): readonly string[] {
  return role === 'api' ? API_NODE_FLAGS : CORE_NODE_FLAGS;
}

export function coreProcessEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...CORE_MALLOC_ENV, ...base };
}

/** True when this process started with the core's malloc settings and Node flags. */
export function hasCoreProcessEnv(
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): boolean {
  return (
    Object.keys(CORE_MALLOC_ENV).every((name) => env[name] !== undefined) &&
    CORE_NODE_FLAGS.every((flag) => execArgv.includes(flag))
  );
}
