// The bundled families the engine names itself, apart from the canvas that registers them, so
// code off the render threads can name them without loading it.
export const EMOJI_FAMILY = 'Noto Color Emoji';
export const DEFAULT_FAMILY = 'Be Vietnam Pro';
/** Fonts for scripts no text family has; Skia falls back to them for any family. */
export const SCRIPT_FAMILIES = ['Noto Sans Arabic', 'Noto Sans Hebrew'];
