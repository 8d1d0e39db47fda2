import type { StateCreator } from 'zustand';
import { api } from '../api/client';
import type { ConnectionState } from '../api/http';
import type { Preferences, SystemInfo } from '../api/types';
import { mayLeave } from '../router/leave-guard';
import { parseRoute, routePath, type Route } from '../router/routes';
import type { AppState } from './app-store';

export type Language = 'en' | 'vi';
export type ThemeChoice = Preferences['theme'];

export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error';
  message: string;
}

export interface UiSlice {
  route: Route;
  navigate: (route: Route, options?: { replace?: boolean }) => void;
  syncRouteFromLocation: () => void;

  connection: ConnectionState;
  setConnection: (state: ConnectionState) => void;

  system: SystemInfo | null;
  loadSystem: () => Promise<void>;
  preferences: Preferences;
  savePreferences: (patch: Partial<Preferences>) => Promise<void>;
  /** Language the UI shows: the saved choice, or the OS/browser locale. */
  language: Language;

  /** True when the server offers free previews (POST /v1/render/preview). */
  previewFree: boolean;

  toasts: Toast[];
  toast: (kind: Toast['kind'], message: string) => void;
  dismissToast: (id: number) => void;
}

const LOCAL_PREFS = 'render-desk.preferences';
/**
 * Set while a change is on its way to the server. A reload (or a quit) can cut that request
 * short; the next start sends the local copy again instead of taking the server's older one.
 */
const PENDING_PREFS = 'render-desk.preferences.pending';

export function systemLanguage(): Language {
  const tags = navigator.languages.length > 0 ? navigator.languages : [navigator.language];
  return tags.some((tag) => tag.toLowerCase().startsWith('vi')) ? 'vi' : 'en';
}

function resolveLanguage(choice: Preferences['language']): Language {
  return choice === 'system' ? systemLanguage() : choice;
}

/** A copy in localStorage avoids a flash of the wrong theme/language before /v1/system answers. */
function localPreferences(): Preferences {
  const fallback: Preferences = { workers: null, port: null, theme: 'system', language: 'system' };
  try {
    const raw = localStorage.getItem(LOCAL_PREFS);
    return raw ? { ...fallback, ...(JSON.parse(raw) as Partial<Preferences>) } : fallback;
  } catch {
    return fallback;
  }
}

let toastSeq = 0;
/** Bumped by every local change, so a /v1/system answer that left before it cannot undo it. */
let preferencesRevision = 0;

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set, get) => {
  const initial = localPreferences();
  return {
    route: parseRoute(location.pathname, location.search),
    navigate: (route, options) => {
      // A screen with unsaved work may hold this back and call it again once the user agrees.
      if (!mayLeave(() => get().navigate(route, options))) return;
      const path = routePath(route);
      if (path !== location.pathname + location.search) {
        if (options?.replace) history.replaceState(null, '', path);
        else history.pushState(null, '', path);
      }
      set({ route });
      window.scrollTo(0, 0);
    },
    syncRouteFromLocation: () => {
      const next = parseRoute(location.pathname, location.search);
      const here = routePath(get().route);
      const proceed = () => {
        history.pushState(null, '', routePath(next));
        set({ route: next });
      };
      if (mayLeave(proceed)) set({ route: next });
      // Back/forward already changed the address: put it back while the question is open.
      else history.pushState(null, '', here);
    },

    connection: 'online',
    setConnection: (connection) => {
      if (get().connection !== connection) set({ connection });
    },

    system: null,
    loadSystem: async () => {
      const revision = preferencesRevision;
      const system = await api.system.get();
      if (revision !== preferencesRevision) {
        // The user changed something while this was in flight: keep their choice.
        set({ system: { ...system, preferences: get().preferences } });
        return;
      }
      if (localStorage.getItem(PENDING_PREFS) !== null) {
        set({ system });
        try {
          await get().savePreferences({});
          return;
        } catch {
          // The server refused the local copy: its own preferences win (below).
        }
      }
      localStorage.setItem(LOCAL_PREFS, JSON.stringify(system.preferences));
      set({
        system,
        preferences: system.preferences,
        language: resolveLanguage(system.preferences.language),
      });
    },
    preferences: initial,
    language: resolveLanguage(initial.language),
    savePreferences: async (patch) => {
      const revision = ++preferencesRevision;
      const before = get().preferences;
      const next = { ...before, ...patch };
      // Theme and language apply at once; the server copy follows.
      set({ preferences: next, language: resolveLanguage(next.language) });
      localStorage.setItem(LOCAL_PREFS, JSON.stringify(next));
      localStorage.setItem(PENDING_PREFS, '1');
      try {
        const saved = await api.system.putPreferences(next);
        if (revision !== preferencesRevision) return; // a later change owns the state now
        localStorage.removeItem(PENDING_PREFS);
        localStorage.setItem(LOCAL_PREFS, JSON.stringify(saved));
        set({ preferences: saved, language: resolveLanguage(saved.language) });
      } catch (error) {
        if (revision !== preferencesRevision) throw error;
        localStorage.removeItem(PENDING_PREFS);
        set({ preferences: before, language: resolveLanguage(before.language) });
        localStorage.setItem(LOCAL_PREFS, JSON.stringify(before));
        throw error;
      }
    },

    previewFree: false,

    toasts: [],
    toast: (kind, message) => {
      const id = ++toastSeq;
      set({ toasts: [...get().toasts.slice(-3), { id, kind, message }] });
      setTimeout(() => get().dismissToast(id), kind === 'error' ? 8000 : 4000);
    },
    dismissToast: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
  };
};
