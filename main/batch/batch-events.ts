import { EventEmitter } from 'node:events';
import type { BatchProgressEvent } from '../../shared/batch-schemas.js';

/** Progress of each batch, pushed to server-sent-event listeners (the UI's progress bar). */
export class BatchEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(progress: BatchProgressEvent): void {
    this.emitter.emit(progress.batch.id, progress);
  }

  subscribe(batchId: string, listener: (progress: BatchProgressEvent) => void): () => void {
    this.emitter.on(batchId, listener);
    return () => this.emitter.off(batchId, listener);
  }
}
