import fs from 'node:fs';

/** Files this process has open (Linux: /proc/self/fd). */
export function openFiles(): string[] {
  return fs.readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [fs.readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}
