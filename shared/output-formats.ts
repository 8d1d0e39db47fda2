/** The formats a render or batch writes (plain data: the UI imports it without the schemas). */
export const OUTPUT_FORMATS = ['png', 'jpeg', 'webp', 'avif', 'pdf'] as const;
