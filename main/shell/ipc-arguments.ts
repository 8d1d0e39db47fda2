import path from 'node:path';
import type { FileFilter } from '../../shared/native-bridge.js';

/**
 * Checks of what the UI sends over IPC. The UI is our own code, but a compromised page must not
 * turn a dialog or a download into something else, so every argument is checked for shape and
 * size before the shell acts on it.
 */

export class IpcArgumentError extends Error {}

const MAX_TEXT = 500;

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new IpcArgumentError(`${what} must be an object.`);
  }
  return value as Record<string, unknown>;
}

function optionalText(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > MAX_TEXT) {
    throw new IpcArgumentError(`${what} must be text of at most ${MAX_TEXT} characters.`);
  }
  return value;
}

function filters(value: unknown): FileFilter[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > 20)
    throw new IpcArgumentError('filters must be a list of up to 20.');
  return value.map((entry, i) => {
    const filter = record(entry, `filters[${i}]`);
    const name = optionalText(filter.name, `filters[${i}].name`) ?? '';
    const extensions = filter.extensions;
    if (
      !Array.isArray(extensions) ||
      extensions.length > 50 ||
      !extensions.every((ext) => typeof ext === 'string' && /^(\*|[A-Za-z0-9]{1,16})$/.test(ext))
    ) {
      throw new IpcArgumentError(
        `filters[${i}].extensions must be extensions such as "csv" or "*".`,
      );
    }
    return { name, extensions: extensions as string[] };
  });
}

export function openFilesArguments(value: unknown): {
  title?: string;
  filters?: FileFilter[];
  multiple: boolean;
} {
  const options = record(value ?? {}, 'options');
  const title = optionalText(options.title, 'title');
  const fileFilters = filters(options.filters);
  if (options.multiple !== undefined && typeof options.multiple !== 'boolean') {
    throw new IpcArgumentError('multiple must be true or false.');
  }
  return {
    ...(title !== undefined ? { title } : {}),
    ...(fileFilters ? { filters: fileFilters } : {}),
    multiple: options.multiple === true,
  };
}

export function chooseFolderArguments(value: unknown): { title?: string } {
  const title = optionalText(record(value ?? {}, 'options').title, 'title');
  return title !== undefined ? { title } : {};
}

/**
 * A file name the UI suggests for a save dialog: its last path segment only, without characters
 * Windows refuses, so a suggestion can never point the dialog at another folder.
 */
export function safeSuggestedName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // Characters Windows refuses in file names, control characters included (on purpose).
  // eslint-disable-next-line no-control-regex
  const forbidden = /[<>:"|?*\u0000-\u001f]/g;
  const cleaned = base.replace(forbidden, '_').replace(/^\.+/, '').trim();
  return cleaned.slice(0, 200) || 'download';
}

/**
 * saveFile's URL: absolute or relative to the page, and on the core's origin only, so the
 * shell never fetches another site with the UI's session.
 */
export function saveFileArguments(
  value: unknown,
  context: { pageUrl: string; coreOrigin: string },
): { suggestedName: string; url: string; filters?: FileFilter[] } {
  const options = record(value, 'options');
  const suggested = optionalText(options.suggestedName, 'suggestedName');
  const rawUrl = optionalText(options.url, 'url');
  if (!rawUrl) throw new IpcArgumentError('url is required.');
  let url: URL;
  try {
    url = new URL(rawUrl, context.pageUrl);
  } catch {
    throw new IpcArgumentError('url is not a valid URL.');
  }
  if (url.origin !== context.coreOrigin)
    throw new IpcArgumentError('url must be on the app’s own server.');
  const fileFilters = filters(options.filters);
  return {
    suggestedName: safeSuggestedName(suggested ?? ''),
    url: url.href,
    ...(fileFilters ? { filters: fileFilters } : {}),
  };
}

export function revealArguments(value: unknown): string {
  if (
    typeof value !== 'string' ||
    value.length === 0 ||
    value.length > 4096 ||
    value.includes('\0')
  ) {
    throw new IpcArgumentError('path must be a file path.');
  }
  if (!path.isAbsolute(value)) throw new IpcArgumentError('path must be absolute.');
  return path.normalize(value);
}
