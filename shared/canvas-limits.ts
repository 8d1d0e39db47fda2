/**
 * Print sizes fit (A4 at 300 dpi is 3508 px); a larger canvas would only exhaust memory. Its own
 * module so that the render threads, which draw and never parse a template, load no schema.
 */
export const MAX_CANVAS_SIDE = 5000;
