/** UI text of the editor screens, in English and Vietnamese (merged into en.ts and vi.ts). */
export const editorEn = {} as const;

export const editorVi: Record<keyof typeof editorEn, string> = {};
