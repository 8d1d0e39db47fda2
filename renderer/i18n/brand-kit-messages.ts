/** UI text of the brand kit screens, in English and Vietnamese (merged into en.ts and vi.ts). */
export const brandKitEn = {} as const;

export const brandKitVi: Record<keyof typeof brandKitEn, string> = {};
