import { z } from 'zod';

/** Schemas of the desktop UI's sessions: launch links and the session they are traded for. */

/**
 * Where the UI page keeps its session in the tab's sessionStorage, so that a reload keeps it
 * (renderer/api/session.ts).
 */
export const UI_SESSION_STORAGE_KEY = 'render-desk.session';

export const LaunchToken = z.object({ token: z.string().max(200) }).strict();

export const UiSession = z.object({
  session: z.string().describe('Sent back as the x-render-desk-session header.'),
});
export type UiSession = z.infer<typeof UiSession>;

export const UiLaunchLink = z.object({
  url: z.string().describe('Opens the UI once; the page trades its token for a session.'),
});
export type UiLaunchLink = z.infer<typeof UiLaunchLink>;
