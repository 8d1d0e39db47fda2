import { z } from 'zod';

/** Schemas of the desktop UI's sessions: launch links and the session they are traded for. */

export const LaunchToken = z.object({ token: z.string().max(200) }).strict();

export const UiSession = z.object({
  session: z.string().describe('Sent back as the x-render-desk-session header.'),
});
export type UiSession = z.infer<typeof UiSession>;

export const UiLaunchLink = z.object({
  url: z.string().describe('Opens the UI once; the page trades its token for a session.'),
});
export type UiLaunchLink = z.infer<typeof UiLaunchLink>;
