import { EventEmitter } from 'node:events';
import type { Batch } from '../../shared/batch-schemas.js';

/** Progress of one batch, pushed to server-sent-event listeners (the UI's progress bar). */
export interface BatchProgress {
  batch: Batch;
  /** Rows per second over the last few seconds. */
  rowsPerSecond: number;
  /** Seconds left at that pace; null until there is a pace. */
  secondsLeft: number | null;
}

export class BatchEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(progress: BatchProgress): void {
    this.emitter.emit(progress.batch.id, progress);
  }

  subscribe(batchId: string, listener: (progress: BatchProgress) => void): () => void {
    this.emitter.on(batchId, listener);
    return () => this.emitter.off(batchId, listener);
  }
}
