import os from 'node:os';
import type { SettingsRepository } from '../data/types/settings.js';
import type { AsyncPort } from '../data/async-port.js';
import type { LendCoresSettings, TeamServiceUpdate } from '../../shared/team-service-schemas.js';
import { TeamServiceUpdate as TeamServiceUpdateSchema } from '../../shared/team-service-schemas.js';

const SETTINGS_KEY = 'team-service';

/** What the app keeps about its team service, secrets included (in this computer's data folder). */
export interface TeamServiceSettings {
  url: string | null;
  apiKey: string | null;
  lend: LendCoresSettings;
  secrets: {
    postgresPassword: string | null;
    redisPassword: string | null;
    s3AccessKeyId: string | null;
    s3SecretAccessKey: string | null;
  };
}

export const NO_TEAM_SERVICE: TeamServiceSettings = {
  url: null,
  apiKey: null,
  lend: { enabled: false, workers: Math.max(1, os.availableParallelism() - 1), postgresUrl: null },
  secrets: {
    postgresPassword: null,
    redisPassword: null,
    s3AccessKeyId: null,
    s3SecretAccessKey: null,
  },
};

/** The team-service settings in the core's settings table (one JSON value). */
export class TeamServiceSettingsStore {
  constructor(private readonly settings: AsyncPort<SettingsRepository>) {}

  async read(): Promise<TeamServiceSettings> {
    const raw = await this.settings.get(SETTINGS_KEY);
    if (!raw) return structuredClone(NO_TEAM_SERVICE);
    try {
      const parsed = JSON.parse(raw) as Partial<TeamServiceSettings>;
      return {
        url: parsed.url ?? null,
        apiKey: parsed.apiKey ?? null,
        lend: { ...NO_TEAM_SERVICE.lend, ...parsed.lend },
        secrets: { ...NO_TEAM_SERVICE.secrets, ...parsed.secrets },
      };
    } catch {
      return structuredClone(NO_TEAM_SERVICE);
    }
  }

  /** Applies an update: an omitted secret keeps the saved one, null removes it. */
  async update(input: TeamServiceUpdate): Promise<TeamServiceSettings> {
    const update = TeamServiceUpdateSchema.parse(input);
    const current = await this.read();
    const keep = <T>(value: T | undefined, saved: T): T => (value === undefined ? saved : value);
    const next: TeamServiceSettings = {
      url: update.url === null ? null : update.url.replace(/\/+$/, ''),
      apiKey: keep(update.apiKey, current.apiKey),
      // The URL as the status showed it (password masked) means "unchanged".
      lend: {
        ...update.lend,
        postgresUrl:
          update.lend.postgresUrl !== null &&
          update.lend.postgresUrl === maskedPostgresUrl(current.lend.postgresUrl)
            ? current.lend.postgresUrl
            : update.lend.postgresUrl,
      },
      secrets: {
        postgresPassword: keep(update.secrets.postgresPassword, current.secrets.postgresPassword),
        redisPassword: keep(update.secrets.redisPassword, current.secrets.redisPassword),
        s3AccessKeyId: keep(update.secrets.s3AccessKeyId, current.secrets.s3AccessKeyId),
        s3SecretAccessKey: keep(
          update.secrets.s3SecretAccessKey,
          current.secrets.s3SecretAccessKey,
        ),
      },
    };
    await this.settings.set(SETTINGS_KEY, JSON.stringify(next));
    return next;
  }
}

/** A PostgreSQL URL with any password in it replaced, for showing and logging. */
export function maskedPostgresUrl(url: string | null): string | null {
  if (!url) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}
