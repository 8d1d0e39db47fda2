/** The colour roles of a brand profile, in the order the screens show them. */
export const BRAND_COLOURS = ['primary', 'secondary', 'accent', 'text', 'background'] as const;
export type BrandColour = (typeof BRAND_COLOURS)[number];
