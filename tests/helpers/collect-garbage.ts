import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A full, precise garbage collection on demand. V8 may let tens of MiB of garbage pile up
 * before it collects, so a memory bar measured without collecting first measures the
 * collector's timing (and the machine's load), not what the code under test keeps.
 * Called without options on purpose: `gc({ type: 'major' })` treats the stack as possibly
 * holding pointers and was seen keeping ~20 MB of already-read CSV rows alive.
 */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

export function collectGarbage(): void {
  gc();
}
