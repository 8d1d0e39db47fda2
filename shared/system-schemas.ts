import { z } from 'zod';

/** Schemas of the UI-support routes about this installation (`/v1/system`). */

/** Preferences the UI stores in the data directory; workers and port apply at the next start. */
export const Preferences = z
  .object({
    workers: z.number().int().min(1).max(64).nullable().default(null),
    port: z.number().int().min(0).max(65535).nullable().default(null),
    theme: z.enum(['system', 'light', 'dark']).default('system'),
    language: z.enum(['system', 'en', 'vi']).default('system'),
  })
  .strict();
export type Preferences = z.infer<typeof Preferences>;

export const SystemInfo = z.object({
  version: z.string().describe("The app's version (not the /v1 API's)."),
  url: z.string(),
  port: z.number().int(),
  dataDir: z.string(),
  workers: z.number().int(),
  /** `cluster`: this page is served by a team service (a cluster), not by this computer. */
  mode: z.enum(['embedded', 'cluster']),
  preferences: Preferences,
});
export type SystemInfo = z.infer<typeof SystemInfo>;
