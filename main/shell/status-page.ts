/**
 * The pages the window shows while there is no UI to show: the core is starting, restarting
 * after a crash, or could not start. Plain HTML in a data: URL (no scripts, its own strict CSP),
 * so it works whatever state the core is in.
 */

export type StatusPage =
  | { kind: 'starting' }
  | { kind: 'reconnecting'; attempt: number; delayMs: number }
  | { kind: 'failed'; reason: string };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function statusPageHtml(page: StatusPage): string {
  let title: string;
  let body: string;
  switch (page.kind) {
    case 'starting':
      title = 'Starting Render Desk…';
      body = '<p>Opening your templates and batches.</p>';
      break;
    case 'reconnecting': {
      const seconds = Math.max(1, Math.round(page.delayMs / 1000));
      title = 'Reconnecting…';
      body =
        '<p>The rendering engine stopped unexpectedly and is being restarted ' +
        `(attempt ${page.attempt}, in about ${seconds} s).</p>` +
        '<p>Batches that were running continue where they left off; no row is charged twice.</p>';
      break;
    }
    case 'failed':
      title = 'Render Desk could not start';
      body =
        '<p>The rendering engine did not start:</p>' +
        `<pre>${escapeHtml(page.reason)}</pre>` +
        '<p>If a setting is named above, correct it (command line or RENDER_DESK_* environment ' +
        'variable); then start the app again.</p>';
      break;
  }
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    `<title>${escapeHtml(title)}</title><style>` +
    'html{color-scheme:light dark}body{font:15px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh}' +
    'main{max-width:34rem;padding:2rem}h1{font-size:1.4rem;font-weight:600}pre{white-space:pre-wrap;opacity:.8}' +
    `</style></head><body><main role="status" aria-live="polite"><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`
  );
}

export function statusPageUrl(page: StatusPage): string {
  return `data:text/html;charset=utf-8,${encodeURIComponent(statusPageHtml(page))}`;
}
