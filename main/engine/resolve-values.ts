import type { BrandProfile } from '../../shared/brand-profile.js';
import { brandValue } from '../../shared/brand-value.js';
import { parseLocaleNumber } from '../../shared/cell-values.js';
import { Errors, isAppError, type AppError, type Problem } from '../../shared/errors.js';
import type { BrandRole, Template, Variable } from '../../shared/template-format.js';
import type { ImageInput, ResolvedValue } from '../render/render-protocol.js';
import {
  countCharacters,
  MAX_TEXT_TOTAL_CHARS,
  MAX_TEXT_VALUE_CHARS,
  TEXT_VALUE_TOO_LONG,
  textTotalTooLong,
} from './text-limits.js';

export interface ResolveOptions {
  brand: BrandProfile;
  resolveImage: (value: string, path: string) => ImageInput;
  /** Receives where each omitted brand-bound variable's value came from. */
  brandFill?: BrandFill[];
}

/** An omitted brand-bound variable and where its value came from (or that it was left empty). */
export interface BrandFill {
  variable: string;
  role: BrandRole;
  source: 'brand' | 'default' | 'empty';
}

/**
 * Validates raw values against the template's variables and normalises them for the worker.
 * Every problem is collected, each with its path (`values.price`), so one 422 tells the caller
 * everything that is wrong. An empty value falls back to the brand profile (for brand-bound
 * variables), then to the variable's default; a brand-bound variable with neither is left empty
 * (its layers draw as empty), never a 422, even when the template marks it required.
 */
export function resolveValues(
  template: Template,
  rawValues: Record<string, unknown>,
  options: ResolveOptions,
): Record<string, ResolvedValue> {
  const problems: Problem[] = [];
  const declared = new Set(template.variables.map((v) => v.name));
  for (const name of Object.keys(rawValues)) {
    if (!declared.has(name)) {
      problems.push({
        path: `values.${name}`,
        message: `the template has no variable "${name}" (it has ${[...declared].join(', ')})`,
      });
    }
  }
  const resolved: Record<string, ResolvedValue> = {};
  const specific: AppError[] = [];
  let textCharacters = 0;
  for (const variable of template.variables) {
    const path = `values.${variable.name}`;
    let raw = rawValues[variable.name];
    const role = variable.bindsTo;
    if (isEmpty(raw) && role) {
      // Spec 2.4: a brand-bound variable may always be omitted. Brand, then default, then empty.
      const fromBrand = brandValue(options.brand, role);
      const source = !isEmpty(fromBrand)
        ? 'brand'
        : variable.default !== undefined && !isEmpty(variable.default)
          ? 'default'
          : 'empty';
      raw = source === 'brand' ? fromBrand : source === 'default' ? variable.default : raw;
      options.brandFill?.push({ variable: variable.name, role, source });
    }
    if (isEmpty(raw) && variable.default !== undefined) raw = variable.default;
    if (isEmpty(raw)) {
      if (variable.required && !role)
        problems.push({ path, message: `a value is required (${variable.type})` });
      resolved[variable.name] = null;
      continue;
    }
    try {
      const value = normalise(variable, raw, path, options, problems, template.locale);
      resolved[variable.name] = value;
      if (variable.type === 'text' || variable.type === 'longText' || variable.type === 'list')
        textCharacters += textLength(value);
    } catch (error) {
      if (!isAppError(error) || error.status !== 422) throw error;
      if (error.code !== 'validation-failed') specific.push(error);
      problems.push(...(error.problems ?? [{ path, message: error.message }]));
      resolved[variable.name] = null;
    }
  }
  if (textCharacters > MAX_TEXT_TOTAL_CHARS)
    problems.push({ path: 'values', message: textTotalTooLong(textCharacters) });
  // A lone remote-URL or SVG refusal keeps its own code; mixed with others, one 422 lists all.
  const only = specific[0];
  if (only && specific.length === 1 && problems.length === (only.problems?.length ?? 1)) throw only;
  if (problems.length > 0) throw Errors.validation(problems);
  return resolved;
}

function textLength(value: ResolvedValue): number {
  if (typeof value === 'string') return countCharacters(value, Infinity);
  if (Array.isArray(value))
    return value.reduce((sum, item) => sum + countCharacters(item, Infinity), 0);
  return 0;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function normalise(
  variable: Variable,
  raw: unknown,
  path: string,
  options: ResolveOptions,
  problems: Problem[],
  templateLocale: string,
): ResolvedValue {
  const bad = (message: string): null => {
    problems.push({ path, message });
    return null;
  };
  switch (variable.type) {
    case 'text':
    case 'longText': {
      // A number or true/false is written as JSON shows it (12345 → "12345"), as a spreadsheet
      // cell with that value is in a batch: single renders and batch rows agree.
      const text =
        typeof raw === 'string'
          ? raw
          : (typeof raw === 'number' && Number.isFinite(raw)) || typeof raw === 'boolean'
            ? String(raw)
            : null;
      if (text === null) return bad(`expected text, got ${describe(raw)}`);
      // Before NFC, which would walk all of a 4 MB value first.
      if (countCharacters(text, MAX_TEXT_VALUE_CHARS) > MAX_TEXT_VALUE_CHARS)
        return bad(TEXT_VALUE_TOO_LONG);
      // NFC first: decomposed Vietnamese would shape its marks as separate glyphs.
      return text.normalize('NFC');
    }
    case 'colour': {
      if (typeof raw !== 'string')
        return bad(`expected a colour like #1A2B3C, got ${describe(raw)}`);
      const colour = normaliseColour(raw);
      return colour ?? bad(`"${raw}" is not a colour; use #RGB, #RRGGBB or #RRGGBBAA`);
    }
    case 'number': {
      if (typeof raw !== 'number' && typeof raw !== 'string') {
        return bad(`expected a number, got ${describe(raw)}`);
      }
      // Machine notation first ("1.5"); else the number as the variable's market writes it
      // ("1.250.000 ₫" in vi-VN), read by the rule a spreadsheet cell and the app's field use, so
      // the API takes what they take. "12abc" and "0x10" stay refused.
      const n =
        typeof raw === 'number'
          ? raw
          : NUMBER_TEXT.test(raw.trim())
            ? Number(raw.trim())
            : (parseLocaleNumber(raw, variable.locale ?? templateLocale) ?? NaN);
      if (!Number.isFinite(n)) return bad(`"${String(raw)}" is not a number`);
      if (variable.min !== undefined && n < variable.min)
        return bad(`${n} is below the minimum ${variable.min}`);
      if (variable.max !== undefined && n > variable.max)
        return bad(`${n} is above the maximum ${variable.max}`);
      return n;
    }
    case 'date': {
      if (typeof raw !== 'string')
        return bad(`expected a date like 2026-02-17, got ${describe(raw)}`);
      const match = DATE_TEXT.exec(raw.trim());
      if (!match) return bad(`"${raw}" is not a date; use YYYY-MM-DD`);
      const [, y, m, d] = match as unknown as [string, string, string, string];
      const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
      if (
        date.getUTCFullYear() !== Number(y) ||
        date.getUTCMonth() !== Number(m) - 1 ||
        date.getUTCDate() !== Number(d)
      ) {
        return bad(`${y}-${m}-${d} is not a calendar date`);
      }
      return `${y}-${m}-${d}`;
    }
    case 'enum': {
      const value = typeof raw === 'number' ? String(raw) : raw;
      if (typeof value !== 'string')
        return bad(`expected one of ${variable.options.map((o) => o.value).join(', ')}`);
      const option =
        variable.options.find((o) => o.value === value.trim()) ??
        variable.options.find((o) => o.value.toLowerCase() === value.trim().toLowerCase());
      return option
        ? option.value
        : bad(`"${value}" is not one of ${variable.options.map((o) => o.value).join(', ')}`);
    }
    case 'list': {
      const items = typeof raw === 'string' ? raw.split(/\r?\n/) : raw;
      if (!Array.isArray(items)) return bad(`expected a list of texts, got ${describe(raw)}`);
      const out: string[] = [];
      items.forEach((item, index) => {
        if (typeof item !== 'string' && typeof item !== 'number')
          problems.push({
            path: `${path}[${index}]`,
            message: `expected text, got ${describe(item)}`,
          });
        else if (countCharacters(String(item), MAX_TEXT_VALUE_CHARS) > MAX_TEXT_VALUE_CHARS)
          problems.push({ path: `${path}[${index}]`, message: TEXT_VALUE_TOO_LONG });
        else if (String(item).trim() !== '') out.push(String(item).trim().normalize('NFC'));
      });
      if (variable.maxItems !== undefined && out.length > variable.maxItems)
        return bad(`has ${out.length} items; at most ${variable.maxItems}`);
      return out;
    }
    case 'image':
      if (typeof raw !== 'string')
        return bad(
          `expected an image (upload id, data: URI or absolute path), got ${describe(raw)}`,
        );
      return options.resolveImage(raw, path);
  }
}

const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** `YYYY-MM-DD`, optionally followed by an ISO time (the date part is what counts). */
const DATE_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function normaliseColour(value: string): string | null {
  const hex = value.trim();
  if (!/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(hex)) return null;
  if (hex.length === 4) return `#${[...hex.slice(1)].map((c) => c + c).join('')}`.toUpperCase();
  return hex.toUpperCase();
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}
