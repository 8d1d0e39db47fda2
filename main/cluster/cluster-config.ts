import { ClusterConfigError } from './cluster-config-error.js';
import type { NodeRole } from './coordination.js';
import { hasPassword, secretFromEnv } from './secret-env.js';

/** The settings that turn a core into a cluster node (DESIGN §6a). */
export interface ClusterConfig {
  /** PostgreSQL URL; its password may come from PGPASSWORD instead. */
  postgresUrl: string;
  role: NodeRole;
  /** Address to listen on: loopback unless allowed hosts are named. */
  host: string;
  /** Host header values an API node answers to beyond loopback names. */
  allowedHosts: string[];
}

const ROLES: readonly NodeRole[] = ['api', 'worker', 'all'];

/**
 * Reads the cluster flags (`--cluster`, `--role`, `--host`, `--allowed-hosts`) and their
 * environment variables. Returns null in embedded mode (no PostgreSQL URL anywhere).
 */
export function resolveClusterConfig(
  flags: { cluster?: string | boolean; role?: string; host?: string; allowedHosts?: string },
  env: NodeJS.ProcessEnv = process.env,
): ClusterConfig | null {
  const fromFlag =
    typeof flags.cluster === 'string' && flags.cluster !== '' ? flags.cluster : undefined;
  if (fromFlag && hasPassword(fromFlag)) {
    throw new ClusterConfigError(
      'secret-on-command-line',
      'The PostgreSQL password must not be on the command line, where every user of the machine can read it. Set PGPASSWORD, or put the whole URL in RENDER_DESK_CLUSTER or in a file named by RENDER_DESK_CLUSTER_FILE.',
    );
  }
  const postgresUrl = fromFlag ?? secretFromEnv('RENDER_DESK_CLUSTER', env);
  if (!postgresUrl) {
    if (flags.cluster === true)
      throw new ClusterConfigError(
        'cluster-url-missing',
        '--cluster needs a PostgreSQL URL: --cluster postgres://user@host:5432/db, or RENDER_DESK_CLUSTER.',
      );
    if (flags.role || flags.allowedHosts || (flags.host && !isLoopback(flags.host)))
      throw new ClusterConfigError(
        'cluster-only-setting',
        '--role, --allowed-hosts and listening beyond loopback exist only in cluster mode (--cluster or RENDER_DESK_CLUSTER).',
      );
    return null;
  }
  if (!/^postgres(ql)?:\/\//.test(postgresUrl))
    throw new ClusterConfigError(
      'cluster-url-invalid',
      'The cluster setting must be a postgres:// URL.',
    );
  const role = (flags.role ?? env.RENDER_DESK_ROLE ?? 'all') as NodeRole;
  if (!ROLES.includes(role))
    throw new ClusterConfigError(
      'role-invalid',
      `--role must be api, worker or all; got "${role}".`,
    );
  const allowedHosts = (flags.allowedHosts ?? env.RENDER_DESK_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const host = flags.host ?? env.RENDER_DESK_HOST ?? '127.0.0.1';
  if (!isLoopback(host) && allowedHosts.length === 0)
    throw new ClusterConfigError(
      'allowed-hosts-missing',
      `Listening on ${host} needs --allowed-hosts (or RENDER_DESK_ALLOWED_HOSTS): the names clients use to reach this node, so that a foreign Host header (DNS rebinding) is still refused.`,
    );
  return { postgresUrl, role, host, allowedHosts };
}

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost';
}
