/**
 * A layer's link in a PDF: a web page or an e-mail address, never a scheme that runs something
 * (`javascript:`, `file:`, `data:`). The template's literal is checked by its start here; the
 * engine checks the whole link again once its placeholders are filled, since a value can make
 * any text.
 */
export const LINK_SCHEMES = ['http:', 'https:', 'mailto:'] as const;

/** Longer links are data, not addresses, and some viewers cut them. */
export const MAX_LINK_LENGTH = 2000;

/** What a template's `link` may start with: an allowed scheme, or a placeholder that gives one. */
export const LINK_START = /^(?:https?:\/\/|mailto:|\{\{)/i;
