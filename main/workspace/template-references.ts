import type { Problem } from '../../shared/errors.js';
import { pagePixelSize } from '../../shared/page-sizes.js';
import {
  STACK_MAX_DEPTH,
  type Layer,
  type Layout,
  type Ratio,
  type Template,
  type VariableType,
  type VietQrSource,
} from '../../shared/template-format.js';
import { RATIO_NAMES, RATIO_SIZES } from '../../shared/ratios.js';
import { formatPath } from '../../shared/zod-problems.js';
import { encodeBarcode } from '../engine/barcode/barcode-symbol.js';
import { checkVietQr, type VietQrProblem } from '../engine/vietqr/vietqr-fields.js';
import { placeholderNames } from '../engine/format-value.js';
import { formatVersionProblems } from './format-version-problems.js';

/** Which variable types a `{ var }` reference accepts, by the property that holds it. */
function acceptedTypes(
  key: PropertyKey | undefined,
  parent: PropertyKey | undefined,
): VariableType[] | null {
  // A VietQR's fields take a variable's own value: the bank an enum's BIN, the amount a number.
  if (parent === 'vietqr')
    return key === 'amount'
      ? ['number', 'text', 'enum']
      : key === 'message'
        ? ['text', 'longText', 'enum']
        : ['text', 'enum'];
  switch (key) {
    case 'source':
      return ['image'];
    case 'items':
      return ['list'];
    case 'family':
      return ['text', 'enum'];
    default:
      // Every other place a reference may stand is a paint or a colour.
      return ['colour'];
  }
}

/**
 * What the schema cannot see: every `{ var }` and `{{placeholder}}` names a declared variable
 * (a `{ var }` one of a fitting type), layer ids are unique within a layout, variable names are
 * unique, and each layout has its ratio's canvas size (a "square" of 2480 × 3508 would be listed
 * and delivered as a square). Paths are those of the template JSON
 * (`layouts.square.layers[2].colour.var`).
 */
/**
 * The size a layout must have: its ratio's, or its page's trim at its DPI; null for a custom
 * pixel layout, which may have any size up to the canvas limit.
 */
function layoutSize(
  name: string,
  layout: Layout,
): { width: number; height: number; page?: string } | null {
  if (layout.page) {
    const { unit, width, height } = layout.page;
    return { ...pagePixelSize(layout.page), page: `${width} × ${height} ${unit}` };
  }
  return (RATIO_NAMES as readonly string[]).includes(name) ? RATIO_SIZES[name as Ratio] : null;
}

export function templateReferenceProblems(template: Template, prefix = ''): Problem[] {
  const problems: Problem[] = [];
  const declared = new Map<string, VariableType>();
  template.variables.forEach((variable, index) => {
    if (declared.has(variable.name)) {
      problems.push({
        path: formatPath(prefix, ['variables', index, 'name']),
        message: `another variable is already named "${variable.name}"`,
      });
    }
    declared.set(variable.name, variable.type);
  });

  if (template.primaryLayout !== undefined && !template.layouts[template.primaryLayout]) {
    problems.push({
      path: formatPath(prefix, ['primaryLayout']),
      message: `the template has no layout "${template.primaryLayout}"; name one of ${Object.keys(template.layouts).join(', ')}`,
    });
  }
  for (const [ratio, layout] of Object.entries(template.layouts)) {
    if (!layout) continue;
    const size = layoutSize(ratio, layout);
    if (size && (layout.width !== size.width || layout.height !== size.height)) {
      problems.push({
        path: formatPath(prefix, [
          'layouts',
          ratio,
          layout.width !== size.width ? 'width' : 'height',
        ]),
        message: size.page
          ? `a ${size.page} page at ${layout.page?.dpi} dpi is ${size.width} × ${size.height} px, not ${layout.width} × ${layout.height}`
          : `a ${ratio} layout is ${size.width} × ${size.height} px, not ${layout.width} × ${layout.height}; use another ratio for another size`,
      });
    }
    // Layer ids are unique across the layout's pages: reports and paths name layers by id.
    const ids = new Set<string>();
    const pages: { layers: Layer[]; path: PropertyKey[] }[] = [
      { layers: layout.layers, path: ['layouts', ratio] },
      ...(layout.morePages ?? []).map((page, index) => ({
        layers: page.layers,
        path: ['layouts', ratio, 'morePages', index],
      })),
    ];
    // A stack's children are layers of the layout too (`layers[2].layers[0]`).
    const checkLayers = (layers: Layer[], parent: PropertyKey[], depth = 0): void =>
      layers.forEach((layer, index) => {
        if (layer.kind === 'stack') {
          // Each level may lay its children out twice (to fit them): depth costs time.
          if (depth + 1 > STACK_MAX_DEPTH) {
            problems.push({
              path: formatPath(prefix, [...parent, 'layers', index, 'layers']),
              message: `stacks nest at most ${STACK_MAX_DEPTH} deep; move this stack's layers up a level`,
            });
          }
          checkLayers(layer.layers, [...parent, 'layers', index], depth + 1);
        }
        if (ids.has(layer.id)) {
          problems.push({
            path: formatPath(prefix, [...parent, 'layers', index, 'id']),
            message: `another layer of this layout is already called "${layer.id}"`,
          });
        }
        ids.add(layer.id);
        const valued = layer.kind === 'qr' || layer.kind === 'barcode';
        // A VietQR's fields are `{ var }` references, checked with the others below.
        const text =
          layer.kind === 'text'
            ? layer.text
            : valued && typeof layer.value === 'string'
              ? layer.value
              : '';
        // A code written into the template (no placeholders) is checked once, here.
        if (layer.kind === 'barcode' && placeholderNames(layer.value).length === 0) {
          const encoded = encodeBarcode(layer.symbology, layer.value);
          if (!encoded.ok)
            problems.push({
              path: formatPath(prefix, [...parent, 'layers', index, 'value']),
              message: encoded.reason,
            });
        }
        // A VietQR's fields written into the template are checked once, here, as a code is.
        if (layer.kind === 'qr' && typeof layer.value !== 'string') {
          for (const { field, message } of typedInVietQrProblems(layer.value.vietqr))
            problems.push({
              path: formatPath(prefix, [...parent, 'layers', index, 'value', 'vietqr', field]),
              message,
            });
        }
        for (const name of new Set(placeholderNames(text))) {
          if (declared.has(name)) continue;
          problems.push({
            path: formatPath(prefix, [...parent, 'layers', index, valued ? 'value' : 'text']),
            message: `{{${name}}} names no variable; declare "${name}" under variables or correct the name`,
          });
        }
      });
    for (const page of pages) checkLayers(page.layers, page.path);
    visit(layout, ['layouts', ratio]);
  }
  problems.push(...formatVersionProblems(template, prefix));
  return problems;

  function visit(node: unknown, path: PropertyKey[]): void {
    if (Array.isArray(node)) {
      node.forEach((child, index) => visit(child, [...path, index]));
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (typeof record.var === 'string') {
      const type = declared.get(record.var);
      // A visibility rule's conditions (`visibleWhen.any[1].all[0]`) compare any variable.
      const accepted = path.includes('visibleWhen')
        ? null
        : acceptedTypes(path.at(-1), path.at(-2));
      if (type === undefined) {
        problems.push({
          path: formatPath(prefix, [...path, 'var']),
          message: `no variable is named "${record.var}"; declare it under variables first`,
        });
      } else if (accepted && !accepted.includes(type)) {
        problems.push({
          path: formatPath(prefix, [...path, 'var']),
          message: `"${record.var}" is a ${type} variable; this property needs ${accepted.join(' or ')}`,
        });
      }
    }
    for (const [key, child] of Object.entries(record)) {
      if (key !== 'var') visit(child, [...path, key]);
    }
  }
}

/**
 * The problems of a VietQR's fields written into the template (not `{ var }` references): each
 * would fail every row, so saving says so. Referenced fields stand in as valid values for the
 * check (a bank's BIN, an account number; the optional ones left out) and are checked per row.
 */
function typedInVietQrProblems(source: VietQrSource): VietQrProblem[] {
  const isRef = (value: unknown) => typeof value === 'object' && value !== null;
  const probe: VietQrSource = {
    bank: isRef(source.bank) ? '970436' : source.bank,
    account: isRef(source.account) ? '0123456789' : source.account,
    ...(source.amount === undefined || isRef(source.amount) ? {} : { amount: source.amount }),
    ...(source.message === undefined || isRef(source.message) ? {} : { message: source.message }),
  };
  const checked = checkVietQr(probe, {});
  return checked.ok ? [] : checked.problems.filter((problem) => !isRef(source[problem.field]));
}
