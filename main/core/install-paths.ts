import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the installed app keeps what it ships: found from this module, so that the compiled
 * command-line copy (dist/cli/<build>/, with templates and the UI linked in) finds its own.
 */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TEMPLATES_DIR = path.join(REPO_ROOT, 'templates');
/** The built-in templates. */
export const CATALOG_DIR = path.join(TEMPLATES_DIR, 'catalog');
/**
 * The built-in templates as checked when this copy was built (catalog/checked-templates.ts):
 * the compiled copy has it; run from the sources, there is none and each start checks them.
 */
export const CHECKED_TEMPLATES_FILE = path.join(REPO_ROOT, 'checked-templates.json');
/**
 * The bundled fonts, as the render threads find them (engine/render-job.ts), named here so that
 * a core does not load the engine for the path.
 */
export const BUNDLED_FONTS_DIR = fileURLToPath(new URL('../../templates/fonts', import.meta.url));
/** The built UI the server serves. */
export const UI_DIR = path.join(REPO_ROOT, 'renderer', 'dist');
