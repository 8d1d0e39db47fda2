import { AppError } from '../../shared/errors.js';
import { SystemInfo } from '../../shared/system-schemas.js';
import type { TeamServiceCheck } from '../../shared/team-service-schemas.js';
import { UiLaunchLink } from '../../shared/ui-session-schemas.js';

/** A team service that has not answered by then counts as unreachable. */
const TIMEOUT_MS = 10_000;

/**
 * What the desktop app asks of its team service, with the API key saved in Settings: whether it
 * answers (and is Render Desk), and a one-time link that opens the app there.
 */
export class TeamServiceClient {
  constructor(private readonly fetcher: typeof fetch = fetch) {}

  async check(url: string, apiKey: string): Promise<TeamServiceCheck> {
    const body = await this.call(url, apiKey, '/v1/system', { method: 'GET' });
    const info = SystemInfo.pick({ version: true, mode: true }).safeParse(body);
    if (!info.success) throw unreachable(url, 'it answered, but not as a Render Desk service does');
    return { url, version: info.data.version, mode: info.data.mode };
  }

  /** A launch link made by the team service: it opens the app there once. */
  async launchLink(url: string, apiKey: string): Promise<string> {
    const body = await this.call(url, apiKey, '/v1/ui-sessions', { method: 'POST' });
    const link = UiLaunchLink.safeParse(body);
    if (!link.success) throw unreachable(url, 'it answered, but not with a link to open the app');
    // The link must open the service it came from, never another address.
    if (new URL(link.data.url).origin !== new URL(url).origin) {
      throw unreachable(url, `it answered with a link to another address (${link.data.url})`);
    }
    return link.data.url;
  }

  private async call(
    url: string,
    apiKey: string,
    pathname: string,
    init: RequestInit,
  ): Promise<unknown> {
    let res: Response;
    try {
      res = await this.fetcher(new URL(pathname, `${url}/`), {
        ...init,
        headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw unreachable(
        url,
        cause ? `no answer (${cause})` : `no answer (${(error as Error).message})`,
      );
    }
    if (res.status === 401 || res.status === 403) {
      await res.body?.cancel();
      throw new AppError(
        'team-service-key-refused',
        `The team service at ${url} refused the API key (${res.status}). Ask its administrator for an admin key and save it in Settings → Team service.`,
      );
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw unreachable(url, `it answered ${res.status}`);
    }
    try {
      return await res.json();
    } catch {
      throw unreachable(url, 'it answered, but not with JSON');
    }
  }
}

function unreachable(url: string, why: string): AppError {
  return new AppError(
    'team-service-unreachable',
    `The team service at ${url} cannot be used: ${why}. Check the address in Settings → Team service, and that this computer can reach it.`,
  );
}
