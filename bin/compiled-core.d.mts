/** The compiled core (compiled-core.mjs): dist/cli/<build>/, keyed by the sources it came from. */
export function currentBuild(): string | null;
export function currentBuildDir(): string | null;
export function buildDirOf(entry: string): string;
export function buildCompiledCore(): Promise<string>;
export function useBuild(entry: string): boolean;
