import fs from 'node:fs';

/**
 * A secret from the environment: `NAME`, or the file named by `NAME_FILE` (Docker and Kubernetes
 * secrets are files). Never from the command line, where every user of the machine can read it.
 */
export function secretFromEnv(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const direct = env[name];
  if (direct !== undefined && direct !== '') return direct;
  const file = env[`${name}_FILE`];
  if (file) return fs.readFileSync(file, 'utf8').trim();
  return undefined;
}

/** Refuses a connection URL that carries a password where others can read it (argv). */
export function hasPassword(url: string): boolean {
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
}
