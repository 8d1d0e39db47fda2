import fs from 'node:fs';
import path from 'node:path';

/** What the run's teardown needs to stop one shared service (shared-services.ts). */
export interface SharedServiceRecord {
  pids: { pid: number; politeSignal: NodeJS.Signals }[];
  dirs: string[];
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The run's teardown: stops every shared service by pid and removes its folders. */
export async function stopSharedServices(dir: string): Promise<void> {
  const problems: string[] = [];
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const record = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as SharedServiceRecord;
    for (const { pid, politeSignal } of record.pids) {
      const groupAlive = () => {
        try {
          process.kill(-pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      try {
        process.kill(pid, politeSignal);
      } catch {
        // Already gone.
      }
      const deadline = Date.now() + 15_000;
      while (alive(pid) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // The group is gone.
      }
      const gone = Date.now() + 10_000;
      while (groupAlive() && Date.now() < gone)
        await new Promise((resolve) => setTimeout(resolve, 50));
      if (groupAlive()) problems.push(`${name}: processes of group ${pid} are still alive`);
    }
    for (const folder of record.dirs) fs.rmSync(folder, { recursive: true, force: true });
  }
  fs.rmSync(dir, { recursive: true, force: true });
  if (problems.length > 0) throw new Error(problems.join('\n'));
}
