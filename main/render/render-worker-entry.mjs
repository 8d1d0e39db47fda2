// Worker entry for the render pool. In development the worker is TypeScript: register tsx in
// this thread first, whatever loaders the parent process had (tsx, vitest, Electron). A
// packaged build points the pool at the compiled worker instead.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./render-worker.ts');
export default worker.default;
