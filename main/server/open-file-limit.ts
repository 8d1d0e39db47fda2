import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * The soft limit on open files of this process, or null where there is none to read (Windows).
 * Node has no getrlimit: Linux shows it in /proc, other Unix systems through the shell's
 * `ulimit`, which a child inherits from us.
 */
export function openFileLimit(platform = process.platform): number | null {
  if (platform === 'win32') return null;
  if (platform === 'linux') {
    try {
      const limits = fs.readFileSync('/proc/self/limits', 'utf8');
      const match = /^Max open files\s+(\S+)/m.exec(limits);
      if (match?.[1]) return match[1] === 'unlimited' ? Infinity : Number(match[1]);
    } catch {
      // No /proc (a sandbox): ask the shell below.
    }
  }
  try {
    const answer = execFileSync('/bin/sh', ['-c', 'ulimit -n'], {
      encoding: 'utf8',
      timeout: 5_000,
    }).trim();
    if (answer === 'unlimited') return Infinity;
    const limit = Number(answer);
    return Number.isInteger(limit) && limit > 0 ? limit : null;
  } catch {
    return null;
  }
}
