/**
 * Reads what `main/serve.ts` prints. The headless contract is two lines:
 *   Render Desk is listening on http://127.0.0.1:PORT (data: …, workers: N)
 *   UI: http://127.0.0.1:PORT/ui/session?token=…
 */

export type CoreLine =
  | { kind: 'listening'; url: string }
  | { kind: 'ui-link'; link: string; origin: string; port: number }
  | { kind: 'port-in-use' }
  | { kind: 'other' };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function loopbackHttp(raw: string): URL | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.port !== ''
      ? url
      : null;
  } catch {
    return null;
  }
}

export function parseCoreLine(line: string): CoreLine {
  const ui = /^UI: (\S+)\s*$/.exec(line);
  if (ui?.[1]) {
    const url = loopbackHttp(ui[1]);
    // A link the window will open: it must point at the core on loopback, nowhere else.
    if (url && url.pathname === '/ui/session' && url.searchParams.get('token')) {
      return { kind: 'ui-link', link: url.href, origin: url.origin, port: Number(url.port) };
    }
    return { kind: 'other' };
  }
  const listening = /^Render Desk is listening on (\S+)/.exec(line);
  if (listening?.[1]) {
    const url = loopbackHttp(listening[1]);
    if (url) return { kind: 'listening', url: url.origin };
  }
  if (/the port is in use/i.test(line)) return { kind: 'port-in-use' };
  return { kind: 'other' };
}

/**
 * A line as the shell may log it: the one-time UI token and a newly created API key are
 * secrets, and the shell's output can end up in log files.
 */
export function redactCoreLine(line: string): string {
  if (/^API key \(shown once/.test(line)) {
    return 'API key created for this data folder (hidden by the desktop shell; manage keys in Settings).';
  }
  return line.replace(/([?&]token=)[^\s&]+/g, '$1<hidden>');
}
