import { z } from 'zod';

/**
 * The desktop app's link to a team service (a Render Desk cluster): where it is, the key the
 * app uses there, and whether this computer lends its render threads to it as a worker. Secrets
 * are write-only: they are sent to save them and never come back (only whether one is set).
 */

const Secret = z.string().min(1).max(4096);

export const LendCoresSettings = z
  .object({
    enabled: z.boolean(),
    /** Render threads lent (at most this computer's cores). */
    workers: z.number().int().min(1).max(64),
    /** The cluster's PostgreSQL URL (`postgres://user@host/db`); a password in it is a secret. */
    postgresUrl: z.string().max(2048).nullable(),
  })
  .strict();
export type LendCoresSettings = z.infer<typeof LendCoresSettings>;

export const TeamServiceUpdate = z
  .object({
    /** The team service's address, e.g. `https://render.example.com`; null: none. */
    url: z.string().url().max(2048).nullable(),
    /** An admin API key of the team service; omitted keeps the saved one, null removes it. */
    apiKey: Secret.nullable().optional(),
    lend: LendCoresSettings,
    /** Secrets a worker needs beside the PostgreSQL URL; omitted keeps, null removes. */
    secrets: z
      .object({
        postgresPassword: Secret.nullable().optional(),
        redisPassword: Secret.nullable().optional(),
        s3AccessKeyId: Secret.nullable().optional(),
        s3SecretAccessKey: Secret.nullable().optional(),
      })
      .strict()
      .default({}),
  })
  .strict();
export type TeamServiceUpdate = z.input<typeof TeamServiceUpdate>;

export const LentWorkerState = z.object({
  status: z.enum(['off', 'starting', 'running', 'restarting', 'failed']),
  /** The worker's cluster node id once it runs. */
  nodeId: z.string().nullable(),
  /** Why it is not running (the worker's last words, secrets removed). */
  detail: z.string().nullable(),
});
export type LentWorkerState = z.infer<typeof LentWorkerState>;

export const TeamServiceStatus = z.object({
  url: z.string().nullable(),
  apiKeySet: z.boolean(),
  lend: LendCoresSettings.extend({
    /** The URL with any password in it replaced by `***`. */
    postgresUrl: z.string().nullable(),
  }),
  secretsSet: z.object({
    postgresPassword: z.boolean(),
    redisPassword: z.boolean(),
    s3AccessKeyId: z.boolean(),
    s3SecretAccessKey: z.boolean(),
  }),
  worker: LentWorkerState,
});
export type TeamServiceStatus = z.infer<typeof TeamServiceStatus>;

export const TeamServiceCheck = z.object({
  url: z.string(),
  version: z.string(),
  mode: z.enum(['embedded', 'cluster']),
});
export type TeamServiceCheck = z.infer<typeof TeamServiceCheck>;

export const TeamServiceLink = z.object({
  url: z.string().describe('Opens the team service in the app once (a launch link made there).'),
});
export type TeamServiceLink = z.infer<typeof TeamServiceLink>;
