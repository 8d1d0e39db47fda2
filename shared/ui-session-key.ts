/**
 * Where the UI page keeps its session in the tab's sessionStorage, so that a reload keeps it
 * (renderer/api/session.ts).
 */
export const UI_SESSION_STORAGE_KEY = 'render-desk.session';
