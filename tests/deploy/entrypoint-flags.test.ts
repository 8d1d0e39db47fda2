import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreNodeFlags, launchRole } from '../../main/core-process-env.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';

/** The image's entry point picks the Node flags in shell; it must pick what `npm run serve` does. */
const script = fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'docker-entrypoint.sh'), 'utf8');
const coreFlagsFunction = /^core_flags\(\) \{\n[\s\S]*?\n\}\n/m.exec(script)?.[0];

function entrypointFlags(args: string[], env: Record<string, string> = {}): string[] {
  const output = execFileSync(
    'sh',
    ['-c', `set -eu\n${coreFlagsFunction ?? ''}\ncore_flags "$@"`, 'sh', ...args],
    { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, encoding: 'utf8' },
  );
  return output.trim().split(/\s+/);
}

describe("the image's entry point", () => {
  it('starts each role with the Node flags that npm run serve gives it', () => {
    expect(coreFlagsFunction).toBeDefined();
    const cases: { args: string[]; env?: Record<string, string> }[] = [
      { args: [] },
      { args: ['--role', 'api', '--host', '0.0.0.0', '--port', '5317'] },
      { args: ['--role=api'] },
      { args: ['--role', 'worker'] },
      { args: ['--role', 'all'] },
      { args: ['--workers', '2'], env: { RENDER_DESK_ROLE: 'api' } },
      { args: ['--role', 'worker'], env: { RENDER_DESK_ROLE: 'api' } },
      { args: ['--role', 'api', '--role', 'worker'] },
    ];
    for (const { args, env = {} } of cases) {
      expect(entrypointFlags(args, env), args.join(' ')).toEqual([
        ...coreNodeFlags(launchRole(args, env)),
      ]);
    }
    expect(entrypointFlags(['--role', 'api'])).not.toContain('--heap-growing-percent=300');
  });
});
