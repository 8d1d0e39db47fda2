import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { dropSampleCsv } from './csv.js';
import {
  openUi,
  screenshot,
  settle,
  startCore,
  type CoreProcess,
  type UiSession,
} from './harness.js';

/**
 * The main screens at the window sizes people use (a small laptop, a full-HD monitor and a
 * window made small), in English and Vietnamese, each screen opened at one size and resized to the
 * others as people resize the window: a screenshot of each, and the layout checked
 * where a defect shows — sideways scrolling, a heading out of sight, text cut or wider than its
 * box, a control sticking out of its box, a short label broken over lines, a primary action out
 * of reach or under something else, and catalog names left in English in the Vietnamese UI.
 * All the problems of a language are gathered and said at once.
 */

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 1024, height: 700 },
] as const;

const WIZARD_TEMPLATE = 'tmpl_flash_sale_1111';

interface Screen {
  name: string;
  /** Opens the screen; resolves once it has drawn what it is for. */
  open: (page: Page, core: CoreProcess) => Promise<void>;
  /** The editor names itself for screen readers only: its h1 is visually hidden. */
  hiddenHeading?: boolean;
  /** What else is wrong on this screen in this language, said as problems. */
  check?: (page: Page, core: CoreProcess, language: 'en' | 'vi') => Promise<string[]>;
}

/** Names Vietnamese uses as they are: a card may say "Flash sale" in the Vietnamese UI. */
const SAME_IN_VIETNAMESE = new Set(['Flash sale', 'Podcast', 'Blog & web']);

/**
 * The catalog's categories and sub-categories are English data; in the Vietnamese UI every card
 * names them in Vietnamese, none left in English.
 */
async function taxonomyInVietnamese(
  page: Page,
  core: CoreProcess,
  language: 'en' | 'vi',
): Promise<string[]> {
  if (language !== 'vi') return [];
  const res = await core.api('/v1/catalog/taxonomy');
  const taxonomy = (await res.json()) as {
    categories: { name: string; subCategories: string[] }[];
  };
  const english = new Set(
    taxonomy.categories
      .flatMap((c) => [c.name, ...c.subCategories])
      .filter((name) => !SAME_IN_VIETNAMESE.has(name)),
  );
  const lines = await page.locator('.template-card .template-sub').allInnerTexts();
  if (lines.length === 0) return ['no catalog cards'];
  return lines
    .flatMap((line) => line.split(/\s*·\s*|\n/).map((part) => part.trim()))
    .filter((part) => english.has(part))
    .map((part) => `"${part}" left in English on a catalog card`);
}

function visit(path: string, ready: string): Screen['open'] {
  return async (page, core) => {
    await page.goto(core.url + path);
    await page.locator(ready).first().waitFor({ timeout: 30_000 });
  };
}

/** What the page measures: every defect found, described so a failure says where it is. */
interface Layout {
  scrollWidth: number;
  innerWidth: number;
  heading: string | null;
  headingVisible: boolean;
  /** Text wider than its box: cut off, or drawn over what is beside it. */
  overflowing: string[];
  /** A control that sticks out of the bordered box it sits in. */
  escaping: string[];
  /** A short label, heading or button broken over two lines. */
  wrapped: string[];
  offScreen: string[];
  covered: string[];
}

/**
 * Measured in the page as a string: these tests have no DOM types.
 * - Text that overflows: a button, label, heading, table cell, tab, chip or badge whose content
 *   is wider than its box (deliberate ellipses with the full text in a title are left alone), a
 *   select whose chosen option or a text field whose value is wider than the room inside it.
 * - A button, field or label wider than the bordered box around it (not a scrolling one).
 * - A short text (a few words) that the layout breaks over lines.
 * - Primary and submit buttons: reachable by scrolling, and the button itself at its centre.
 */
const MEASURE = `(() => {
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const s = getComputedStyle(e);
    return s.visibility !== 'hidden' && !e.closest('[hidden], .visually-hidden, [aria-hidden="true"]');
  };
  const describe = (e) =>
    e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\\s+/).join('.') : '') +
    ' "' + (e.innerText || e.value || e.getAttribute('aria-label') || '').trim().replace(/\\s+/g, ' ').slice(0, 60) + '"';
  const h1 = document.querySelector('main h1, h1');
  const r = h1 && h1.getBoundingClientRect();

  const overflowing = [];
  const TEXT = 'button, label, h1, h2, h3, h4, legend, th, td, a.btn, [role="tab"], [role="radio"], .chip, .badge, summary, dt, dd';
  for (const e of document.querySelectorAll(TEXT)) {
    if (!visible(e)) continue;
    const s = getComputedStyle(e);
    if (s.display === 'inline') continue;
    if (s.textOverflow === 'ellipsis' && e.title) continue;
    if (e.scrollWidth > e.clientWidth + 1) overflowing.push(describe(e) + ' ' + e.scrollWidth + '>' + e.clientWidth);
  }
  const canvas = document.createElement('canvas').getContext('2d');
  const room = (field, s) =>
    field.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  for (const select of document.querySelectorAll('select')) {
    if (!visible(select) || select.selectedIndex < 0) continue;
    const s = getComputedStyle(select);
    canvas.font = s.font;
    const text = select.options[select.selectedIndex].text;
    // The arrow sits in the right padding: the text has the box less both paddings.
    const width = canvas.measureText(text).width;
    if (width > room(select, s) + 1) overflowing.push('select "' + text + '" ' + Math.round(width) + '>' + room(select, s));
  }
  for (const input of document.querySelectorAll('input:not([type]), input[type="text"], input[type="number"], input[type="search"], input[type="url"]')) {
    if (!visible(input) || !input.value) continue;
    const s = getComputedStyle(input);
    canvas.font = s.font;
    canvas.letterSpacing = s.letterSpacing;
    const width = canvas.measureText(input.value).width;
    if (width > room(input, s) + 1) overflowing.push('input "' + input.value + '" ' + Math.round(width) + '>' + room(input, s));
  }

  const escaping = [];
  const boxOf = (e) => {
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (['auto', 'scroll'].includes(s.overflowX)) return null;
      const bordered = ['Left', 'Right'].every((side) => parseFloat(s['border' + side + 'Width']) > 0 && s['border' + side + 'Style'] !== 'none');
      if (bordered || s.overflowX === 'hidden' || s.overflowX === 'clip') return a;
    }
    return null;
  };
  for (const e of document.querySelectorAll('button, select, input, textarea, label, a.btn')) {
    if (!visible(e)) continue;
    const box = boxOf(e);
    if (!box) continue;
    const b = e.getBoundingClientRect();
    const a = box.getBoundingClientRect();
    if (b.left < a.left - 1 || b.right > a.right + 1) {
      escaping.push(describe(e) + ' ' + Math.round(b.left) + '..' + Math.round(b.right) + ' out of ' + describe(box).slice(0, 60) + ' ' + Math.round(a.left) + '..' + Math.round(a.right));
    }
  }

  const wrapped = [];
  const SHORT = 'h1, h2, h3, h4, button, th, [role="tab"], [role="radio"], .chip, .badge, label, label > span, label > strong';
  for (const e of document.querySelectorAll(SHORT)) {
    if (!visible(e)) continue;
    // Its own words only (a label's "optional" tag is measured as a span of its own).
    const own = [...e.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    const text = own.map((n) => n.textContent).join(' ').trim();
    if (!text || text.length > 30) continue;
    const line = parseFloat(getComputedStyle(e).lineHeight) || parseFloat(getComputedStyle(e).fontSize) * 1.2;
    const tops = own.flatMap((n) => {
      const range = document.createRange();
      range.selectNodeContents(n);
      return [...range.getClientRects()];
    }).filter((q) => q.width > 0).map((q) => q.top).sort((x, y) => x - y);
    let lines = tops.length > 0 ? 1 : 0;
    for (let i = 1; i < tops.length; i += 1) if (tops[i] - tops[i - 1] > line * 0.6) lines += 1;
    if (lines > 1) wrapped.push(describe(e) + ' on ' + lines + ' lines');
  }

  const offScreen = [];
  const covered = [];
  // Scrolling a button into sight scrolls its page and boxes: each is put back as it was, so
  // the screen is left as the next size finds it.
  const scrolled = new Map([[document.scrollingElement, [window.scrollX, window.scrollY]]]);
  for (const button of document.querySelectorAll('.btn.primary, button[type="submit"]')) {
    if (!visible(button)) continue;
    for (let a = button.parentElement; a; a = a.parentElement) {
      if (!scrolled.has(a)) scrolled.set(a, [a.scrollLeft, a.scrollTop]);
    }
    button.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const b = button.getBoundingClientRect();
    if (b.left < 0 || b.right > innerWidth + 1 || b.top < 0 || b.bottom > innerHeight + 1) {
      offScreen.push(describe(button) + ' at ' + [b.left, b.top, b.right, b.bottom].map(Math.round).join(','));
      continue;
    }
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    if (!hit || !(hit === button || button.contains(hit))) {
      covered.push(describe(button) + ' under ' + (hit ? describe(hit) : 'nothing'));
    }
  }
  for (const [e, [left, top]] of scrolled) e.scrollTo(left, top);
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth,
    heading: h1 ? h1.textContent : null,
    headingVisible: !!r && r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth && !h1.classList.contains('visually-hidden'),
    overflowing,
    escaping,
    wrapped,
    offScreen,
    covered,
  };
})()`;

/** The screens, in the order a tester would click through them. */
function screens(customise: string, next: RegExp): Screen[] {
  return [
    { name: 'catalog', open: visit('/ui/', '.template-card img'), check: taxonomyInVietnamese },
    {
      name: 'template',
      open: visit('/ui/templates/tmpl_product_promo', '[data-testid="preview-image"]'),
    },
    {
      name: 'template-vi-market',
      open: visit('/ui/templates/tmpl_flash_sale_1111', '[data-testid="preview-image"]'),
    },
    {
      name: 'editor',
      hiddenHeading: true,
      open: async (page, core) => {
        // A copy, made the way people start editing, then loaded at its own address.
        await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
        await page.getByRole('button', { name: customise }).click();
        await page.waitForURL(/\/ui\/editor\/wtpl_/);
        await page.goto(page.url());
        await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
        await page.locator('.ed-var-head').first().waitFor();
      },
    },
    { name: 'wizard', open: visit('/ui/batch', '.stepper') },
    {
      name: 'wizard-mapping',
      open: async (page, core) => {
        await dropSampleCsv(page, core, WIZARD_TEMPLATE);
        await page.getByRole('button', { name: next }).click();
        await page.locator('select[data-variable]').first().waitFor();
        await page.locator('.mapping-preview-frame img').first().waitFor({ timeout: 30_000 });
      },
    },
    { name: 'batches', open: visit('/ui/batches', '[data-testid="batches-table"] tbody tr') },
    { name: 'brand', open: visit('/ui/brand', '.brand-layout') },
    { name: 'credits', open: visit('/ui/credits', '[data-testid="ledger"] tbody tr') },
    { name: 'api', open: visit('/ui/api', '[data-testid="api-keys"]') },
    { name: 'settings', open: visit('/ui/settings', '[data-testid="language-select"]') },
  ];
}

describe.each([
  ['en', 'en-US', 'Customise', /^Next$/],
  ['vi', 'vi-VN', 'Tùy chỉnh', /^Tiếp tục$/],
] as const)('the main screens in %s', (language, locale, customise, next) => {
  let core: CoreProcess | undefined;
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('fit 1366×768, 1920×1080 and 1024×700: no sideways scroll, heading in sight, no text cut, primary actions clear', async () => {
    core = await startCore();
    // A finished batch, so that the Batches screen shows its table rather than its empty state.
    const batch = await core.api('/v1/render-batches', {
      method: 'POST',
      json: {
        templateId: 'tmpl_quote_card',
        sourceType: 'json-array',
        source: { records: [{ quote: 'Một câu trích dẫn', author: 'Tác giả' }] },
      },
    });
    expect(batch.status, await batch.clone().text()).toBe(202);
    ui = await openUi(core, { locale, allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/] });
    const { page } = ui;
    const problems: string[] = [];
    const list = screens(customise, next);
    for (const [index, screen] of list.entries()) {
      // Each screen is opened once and then resized, as people resize the window, to the other
      // sizes. The size it is opened at turns with the screen and the language, so each screen
      // is also laid out from its first load at two of the three sizes.
      const first = (index + (language === 'en' ? 0 : 1)) % SIZES.length;
      const sizes = [...SIZES.slice(first), ...SIZES.slice(0, first)];
      for (const [step, size] of sizes.entries()) {
        await page.setViewportSize(size);
        if (step === 0) await screen.open(page, core);
        await settle(page);
        const where = `${screen.name} ${language} ${size.width}×${size.height}${step === 0 ? ' (opened at this size)' : ''}`;
        await screenshot(page, `size-${screen.name}-${language}-${size.width}x${size.height}`);
        const layout = await page.evaluate<Layout>(MEASURE);
        if (layout.scrollWidth > layout.innerWidth) {
          problems.push(`${where}: page ${layout.scrollWidth} px wide in ${layout.innerWidth}`);
        }
        if (layout.heading === null) problems.push(`${where}: no h1`);
        else if (!screen.hiddenHeading && !layout.headingVisible) {
          problems.push(`${where}: h1 "${layout.heading}" out of sight`);
        }
        for (const text of layout.overflowing) problems.push(`${where}: text cut: ${text}`);
        for (const e of layout.escaping) problems.push(`${where}: out of its box: ${e}`);
        for (const e of layout.wrapped) problems.push(`${where}: broken over lines: ${e}`);
        for (const b of layout.offScreen) problems.push(`${where}: off screen: ${b}`);
        for (const b of layout.covered) problems.push(`${where}: covered: ${b}`);
        if (screen.check) {
          for (const p of await screen.check(page, core, language)) problems.push(`${where}: ${p}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(ui.consoleErrors).toEqual([]);
  });
});
