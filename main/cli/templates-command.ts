import fs from 'node:fs';
import path from 'node:path';
import { replaceFile } from '../files/replace-file.js';
import {
  COMMON_OPTIONS,
  cliSettings,
  engineCommandHelp,
  parseCommand,
  requireOption,
} from './cli-options.js';
import { EXIT } from './exit-codes.js';
import type { LocalCore } from './local-core.js';
import type { TerminalStyle } from './terminal-style.js';
import { UsageError } from './usage-error.js';

export const TEMPLATES_HELP =
  engineCommandHelp(`render-desk templates <list|show|fork|export|import> [options]

  list [--q <text>] [--category <name>]    built-in and workspace templates
  show <id>                                a template's layouts and the fields a source needs
  fork <id> [--name <name>]                copy a template into the workspace (a wtpl_… id)
  export <wtpl_id> --out <file.zip>        a workspace template as a pack (images, fonts)
  import <file.zip>                        a pack as a new workspace template

Options:
  --json                 print the result as JSON on stdout`);

const OPTIONS = {
  ...COMMON_OPTIONS,
  q: { type: 'string' },
  category: { type: 'string' },
  name: { type: 'string' },
  out: { type: 'string', short: 'o' },
  json: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseCommand<typeof OPTIONS>>['values'];

/** `render-desk templates …`: the catalog and the workspace, as the app's Templates screen. */
export async function templatesCommand(args: string[], style: TerminalStyle): Promise<number> {
  const { values, positionals } = parseCommand('templates', args, OPTIONS, 2);
  const [action, target] = positionals;
  if (values.help || action === undefined) {
    console.log(TEMPLATES_HELP);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const run = ACTIONS[action];
  if (!run)
    throw new UsageError(
      `templates: unknown action "${action}"; use list, show, fork, export or import`,
    );
  if (action !== 'list' && target === undefined)
    throw new UsageError(
      `templates ${action}: name the ${action === 'import' ? 'pack file' : 'template id'}`,
    );
  const { lazyRenderPool } = await import('../render/lazy-render-pool.js');
  const { composeLocalCore } = await import('./local-core.js');
  const core = await composeLocalCore(cliSettings(values), lazyRenderPool);
  try {
    await run(core, target ?? '', values, style);
    return EXIT.ok;
  } finally {
    await core.close();
  }
}

type Action = (
  core: LocalCore,
  target: string,
  values: Values,
  style: TerminalStyle,
) => Promise<void>;

const ACTIONS: Record<string, Action> = {
  async list(core, _target, values) {
    const { listTemplates, templateSummary } = await import('./template-list.js');
    const entries = listTemplates(core, { q: values.q, category: values.category });
    const items = entries.map(({ template, version }) => ({
      ...templateSummary(template),
      ...(version !== undefined ? { version } : {}),
    }));
    if (values.json) {
      console.log(JSON.stringify(items));
      return;
    }
    const { textTable } = await import('./text-table.js');
    console.log(
      textTable(
        ['id', 'name', 'category', 'layouts'],
        items.map((item) => [
          item.id,
          item.name,
          `${item.category} / ${item.subCategory}`,
          item.layouts.join(' '),
        ]),
      ),
    );
  },

  async show(core, id, values, style) {
    const entry = core.renderer.entry(id);
    const { templateFields } = await import('../batch/template-fields.js');
    const { templateTargets } = await import('../catalog/load-catalog.js');
    const layouts = templateTargets(entry.template);
    const { fields, sampleRow } = templateFields(entry.template);
    const { template } = entry;
    if (values.json) {
      console.log(
        JSON.stringify({
          id: template.id,
          name: template.name,
          category: template.category,
          subCategory: template.subCategory,
          market: template.market,
          locale: template.locale,
          layouts,
          ...(entry.version !== undefined ? { version: entry.version } : {}),
          fields,
          sampleRow,
        }),
      );
      return;
    }
    const { textTable } = await import('./text-table.js');
    console.log(
      `${style.bold(template.name)} (${template.id})\n${template.category} / ${template.subCategory}, ${template.market}, layouts: ${layouts.join(', ')}\n\n` +
        textTable(
          ['field', 'type', 'required', 'example'],
          fields.map((f) => [
            f.name,
            f.type,
            f.required ? 'yes' : '',
            typeof f.example === 'string' ? f.example : JSON.stringify(f.example),
          ]),
        ) +
        `\n\nSample values (render-desk render --values):\n${JSON.stringify(sampleRow)}`,
    );
  },

  async fork(core, id, values) {
    const record = await core.workspace.fork(core.renderer.entry(id), values.name);
    if (values.json)
      console.log(JSON.stringify({ id: record.id, name: record.template.name, forkedFrom: id }));
    else console.log(`forked ${id} as ${record.id} ("${record.template.name}")`);
  },

  async export(core, id, values) {
    const out = path.resolve(requireOption('templates export', 'out', values.out));
    const record = core.workspace.get(id);
    if (!record)
      throw new UsageError(
        id.startsWith('tmpl_')
          ? `templates export: ${id} is built in (every copy of Render Desk has it); fork it first and export the fork`
          : `templates export: no workspace template "${id}" (render-desk templates list)`,
      );
    const { exportPack } = await import('../packs/pack-export.js');
    const { packFontsFrom } = await import('../packs/pack-fonts.js');
    const { appVersion } = await import('./app-version.js');
    const pack = await exportPack(record, {
      workspace: core.workspace,
      fonts: packFontsFrom(core.fonts),
      version: appVersion(),
      builtInAssetsNote: builtInAssetsNote(core),
    });
    await fs.promises.mkdir(path.dirname(out), { recursive: true });
    // Replaced, never written through a link at the name.
    await replaceFile(out, pack.stream);
    if (values.json) console.log(JSON.stringify({ id, file: out, bytes: fs.statSync(out).size }));
    else console.log(`exported ${id} to ${out}`);
  },

  async import(core, file, values) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch (error) {
      throw new UsageError(
        `templates import: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    const { importPack } = await import('../packs/pack-import.js');
    const { packFontsFrom } = await import('../packs/pack-fonts.js');
    const record = await importPack(bytes, {
      workspace: core.workspace,
      fonts: packFontsFrom(core.fonts),
    });
    if (values.json) console.log(JSON.stringify({ id: record.id, name: record.template.name }));
    else console.log(`imported ${path.basename(file)} as ${record.id} ("${record.template.name}")`);
  },
};

/** The built-in catalog's note on its sample images (templates/catalog/ASSETS.md), as the API's export writes it. */
function builtInAssetsNote(core: LocalCore): string | null {
  const first = core.catalog.list()[0];
  if (!first) return null;
  const file = path.join(path.dirname(first.assetsDir), 'ASSETS.md');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}
