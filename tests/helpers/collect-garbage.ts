import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Garbage collection on demand. V8 may let tens of MiB of garbage pile up before it collects, so
 * a memory bar measured without collecting first measures the collector's timing (and the
 * machine's load), not what the code under test keeps.
 */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options?: { type: 'major' | 'minor' }) => void;

/**
 * A full, precise collection: nothing unreachable survives it. Slow on a large heap (it repeats
 * until nothing more is freed), so for checks made once or a few times. Called without options
 * on purpose: `gc({ type: 'major' })` treats the stack as possibly holding pointers and was seen
 * keeping ~20 MB of already-read CSV rows alive.
 */
export function collectGarbage(): void {
  gc();
}

/**
 * One major collection, for sampling memory every few milliseconds while a stream runs: the
 * buffers a stream frees are not on the stack, and a precise collection at that rate starved the
 * work it measured (a 50 MB upload took minutes instead of seconds).
 */
export function collectGarbageQuickly(): void {
  gc({ type: 'major' });
}
