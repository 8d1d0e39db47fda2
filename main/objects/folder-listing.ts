import fs from 'node:fs';
import path from 'node:path';
import type { ObjectEntry, ObjectListing } from './object-store.js';

/**
 * Lists a folder store's keys in the same order as S3 (byte order of the whole key). A folder's
 * keys all start with "name/", so entries are sorted with a "/" after folder names, and whole
 * folders that lie before `after` are skipped without being read.
 */
export async function listFolderKeys(
  root: string,
  prefix: string,
  after: string | undefined,
  limit: number,
): Promise<ObjectListing> {
  const slash = prefix.lastIndexOf('/');
  const entries: ObjectEntry[] = [];
  let more = false;
  for await (const entry of walk(
    root,
    prefix.slice(0, slash + 1),
    prefix.slice(slash + 1),
    after ?? '',
  )) {
    if (entries.length === limit) {
      more = true;
      break;
    }
    entries.push(entry);
  }
  const last = entries[entries.length - 1];
  return { entries, next: more && last ? last.key : null };
}

async function* walk(
  root: string,
  folderKey: string,
  namePrefix: string,
  after: string,
): AsyncGenerator<ObjectEntry> {
  const folder = path.join(root, ...folderKey.split('/').filter(Boolean));
  let dirents: fs.Dirent[];
  try {
    dirents = await fs.promises.readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return;
    throw error;
  }
  const items = dirents
    // Names starting with "." are writers' temporary files, never keys.
    .filter((d) => !d.name.startsWith('.') && d.name.startsWith(namePrefix))
    .filter((d) => d.isFile() || d.isDirectory())
    .map((d) => ({
      name: d.name,
      folder: d.isDirectory(),
      sortKey: folderKey + d.name + (d.isDirectory() ? '/' : ''),
    }))
    .sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
  for (const item of items) {
    if (item.folder) {
      // Every key under this folder sorts before `after` unless `after` lies inside it.
      if (item.sortKey <= after && !after.startsWith(item.sortKey)) continue;
      yield* walk(root, item.sortKey, '', after);
    } else if (item.sortKey > after) {
      const size = await fileSize(path.join(folder, item.name));
      if (size !== null) yield { key: item.sortKey, size };
    }
  }
}

async function fileSize(file: string): Promise<number | null> {
  try {
    return (await fs.promises.stat(file)).size;
  } catch (error) {
    // Deleted since the folder was read.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
