import { Errors } from '../../../../shared/errors.js';
import {
  TeamServiceCheck,
  TeamServiceLink,
  TeamServiceStatus,
  TeamServiceUpdate,
} from '../../../../shared/team-service-schemas.js';
import type { LentWorker } from '../../../team/lent-worker.js';
import type { TeamServiceClient } from '../../../team/team-service-client.js';
import {
  maskedPostgresUrl,
  type TeamServiceSettings,
  type TeamServiceSettingsStore,
} from '../../../team/team-service-settings.js';
import { problem, type RouteRegistry } from '../../route-registry.js';

export interface TeamServiceDeps {
  settings: TeamServiceSettingsStore;
  client: TeamServiceClient;
  worker: LentWorker;
}

/** How a call to the team service fails: nothing saved or the key refused, or no answer. */
const SERVICE_CALL_FAILURES = {
  422: problem('Nothing set, or the key refused'),
  502: problem('team-service-unreachable'),
};

/**
 * The desktop app's team service (Settings → Team service): where it is, the key used there,
 * opening the app there, and lending this computer's render threads to it as a worker.
 * Embedded mode only: a cluster node is the team service.
 */
export function registerTeamServiceRoutes(registry: RouteRegistry, team: TeamServiceDeps): void {
  const status = (settings: TeamServiceSettings): TeamServiceStatus => ({
    url: settings.url,
    apiKeySet: settings.apiKey !== null,
    lend: { ...settings.lend, postgresUrl: maskedPostgresUrl(settings.lend.postgresUrl) },
    secretsSet: {
      postgresPassword: settings.secrets.postgresPassword !== null,
      redisPassword: settings.secrets.redisPassword !== null,
      s3AccessKeyId: settings.secrets.s3AccessKeyId !== null,
      s3SecretAccessKey: settings.secrets.s3SecretAccessKey !== null,
    },
    worker: team.worker.status(),
  });

  const configured = async (): Promise<{ url: string; apiKey: string }> => {
    const settings = await team.settings.read();
    const problems = [
      ...(settings.url ? [] : [{ path: 'url', message: 'no team service is set' }]),
      ...(settings.apiKey ? [] : [{ path: 'apiKey', message: 'no API key is saved for it' }]),
    ];
    if (problems.length > 0)
      throw Errors.validation(problems, 'Set the team service and its API key in Settings first.');
    return { url: settings.url!, apiKey: settings.apiKey! };
  };

  registry.add(
    {
      method: 'GET',
      url: '/v1/team-service',
      summary: 'The team service this app uses, and the worker lending its render threads',
      tags: ['team'],
      access: { scope: 'admin' },
      responses: {
        200: { description: 'Settings (secrets never shown)', schema: TeamServiceStatus },
      },
    },
    async () => status(await team.settings.read()),
  );

  registry.add(
    {
      method: 'PUT',
      url: '/v1/team-service',
      summary: 'Save the team service and the lending settings; the worker starts or stops at once',
      tags: ['team'],
      body: TeamServiceUpdate,
      access: { scope: 'admin' },
      responses: {
        200: { description: 'Saved', schema: TeamServiceStatus },
        422: problem('validation-failed'),
      },
    },
    async ({ body }) => {
      const url = body.lend.postgresUrl;
      if (body.lend.enabled && !url)
        throw Errors.validation([
          { path: 'lend.postgresUrl', message: 'lending needs the cluster’s PostgreSQL URL' },
        ]);
      if (url && !/^postgres(?:ql)?:\/\/[^\s]+$/.test(url))
        throw Errors.validation([
          {
            path: 'lend.postgresUrl',
            message:
              'must be a PostgreSQL URL such as postgres://render@db.example.com/render_desk',
          },
        ]);
      const settings = await team.settings.update(body);
      await team.worker.apply(settings);
      return status(settings);
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/team-service/check',
      summary: 'Ask the team service whether it answers to the saved key',
      tags: ['team'],
      access: { scope: 'admin' },
      responses: {
        200: { description: 'It answers', schema: TeamServiceCheck },
        ...SERVICE_CALL_FAILURES,
      },
    },
    async () => {
      const { url, apiKey } = await configured();
      return team.client.check(url, apiKey);
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/team-service/open',
      summary: 'A one-time link that opens the app on the team service',
      tags: ['team'],
      access: { scope: 'admin' },
      responses: {
        200: { description: 'The link', schema: TeamServiceLink },
        ...SERVICE_CALL_FAILURES,
      },
    },
    async ({ reply }) => {
      const { url, apiKey } = await configured();
      reply.header('Cache-Control', 'no-store');
      return { url: await team.client.launchLink(url, apiKey) };
    },
  );
}
