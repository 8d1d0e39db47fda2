import { startThreadsFrom } from '../main/core/thread-entry.js';
import { compiledCoreDir } from './helpers/compiled-core.js';

// Every test file: the core's threads that tests start (render threads, spreadsheet readers)
// run the engine compiled once per run (the global setup builds it), as the packaged app's
// threads do, instead of each thread registering a TypeScript loader at its start.
startThreadsFrom(compiledCoreDir());
