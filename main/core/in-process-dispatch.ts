import { BatchRunner, batchRowsInFlight } from '../batch/batch-runner.js';
import type { BatchDispatch, DispatchDeps } from './core-parts.js';

/**
 * Embedded mode's dispatch (the app, the headless server, the command line): the batch runner
 * draws the rows in this process, with this core's render pool.
 */
export function inProcessDispatch(deps: DispatchDeps): BatchDispatch {
  return new BatchRunner({
    data: deps.data,
    renderer: deps.renderer,
    outputs: deps.outputs,
    objects: deps.objects,
    events: deps.events,
    openRows: (batch) => deps.uploads.openRows(batch),
    resolveImage: deps.resolveImage,
    concurrency: batchRowsInFlight(deps.pool.threads),
    log: deps.log,
  });
}
