import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MAIN = path.resolve(import.meta.dirname, '../../main');

/** The services every mode shares: made in the recipe (main/core) and nowhere else. */
const SERVICES = [
  'BatchService',
  'BatchRunner',
  'BatchOutputs',
  'RenderService',
  'RemoteImages',
  'UploadService',
  'SingleRenderService',
  'CreditReservations',
  'CustomFonts',
  'WorkspaceTemplates',
  'TemplateLibrary',
  'SubscriptionGate',
];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the composition recipe', () => {
  it('is the only place that constructs the services every mode shares', () => {
    const outside: string[] = [];
    for (const file of sources(MAIN)) {
      const relative = path.relative(MAIN, file);
      if (relative.startsWith(`core${path.sep}`)) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const name of SERVICES)
        if (new RegExp(`new ${name}\\(`).test(text)) outside.push(`${relative}: new ${name}(`);
    }
    expect(outside).toEqual([]);
  });

  it('is used by the server, every command and both cluster roles', () => {
    const uses = (file: string, name: string) =>
      fs.readFileSync(path.join(MAIN, file), 'utf8').includes(name);
    expect(uses('app.ts', 'buildServices(')).toBe(true);
    expect(uses('cli/local-core.ts', 'buildServices(')).toBe(true);
    // A worker-only node draws rows with the recipe's renderer and pool.
    expect(uses('cluster/start-cluster-node.ts', 'buildRenderer(')).toBe(true);
    expect(uses('cluster/start-cluster-node.ts', 'startRenderPool(')).toBe(true);
  });
});
