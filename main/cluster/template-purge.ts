import type { SharedWorkspaceRepository } from '../data/postgres/shared-workspace-repository.js';
import type { ObjectStore } from '../objects/object-store.js';

/** Where a workspace template's files live in the object store. */
export function templateObjectPrefix(templateId: string): string {
  return `workspace-templates/${templateId}/`;
}

/**
 * The leader's purge of deleted workspace templates: files first, then the rows (a failure in
 * between leaves the template purgeable, and the next pass deletes nothing twice). Nodes drop
 * their copies when they see the purged tombstone.
 */
export function templatePurge(
  repository: SharedWorkspaceRepository,
  objects: ObjectStore,
): (graceMs: number) => Promise<string[]> {
  return async (graceMs) => {
    const purged: string[] = [];
    for (const id of await repository.purgeableTemplates(graceMs)) {
      await objects.deletePrefix(templateObjectPrefix(id));
      if (await repository.markTemplatePurged(id)) purged.push(id);
    }
    return purged;
  };
}
