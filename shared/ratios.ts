/**
 * The fixed social ratios and their canvas sizes. Plain data, apart from the template schema
 * (template-format.ts): the UI and the render threads import it without the schema library.
 */
export const RATIO_NAMES = ['square', 'portrait', 'story', 'landscape', 'og'] as const;
export type Ratio = (typeof RATIO_NAMES)[number];

/** Canvas size of each ratio; a layout must use exactly this size. */
export const RATIO_SIZES: Record<Ratio, { width: number; height: number; aspect: string }> = {
  square: { width: 1080, height: 1080, aspect: '1:1 square' },
  portrait: { width: 1080, height: 1350, aspect: '4:5 portrait' },
  story: { width: 1080, height: 1920, aspect: '9:16 story' },
  landscape: { width: 1920, height: 1080, aspect: '16:9 landscape' },
  og: { width: 1200, height: 630, aspect: '1.91:1 link preview (Open Graph)' },
};
