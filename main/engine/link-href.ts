import { LINK_SCHEMES, MAX_LINK_LENGTH } from '../../shared/link-url.js';

/** Why a filled-in link cannot be a PDF link, or null when it can. */
export function linkProblem(link: string): string | null {
  if (link.length > MAX_LINK_LENGTH) {
    return `the link is ${link.length.toLocaleString('en')} characters long; the limit is ${MAX_LINK_LENGTH.toLocaleString('en')}`;
  }
  const url = parsedUrl(link);
  const shown = link.length > 60 ? `${link.slice(0, 57)}…` : link;
  if (!url) return `"${shown}" is not a link; use an http, https or mailto address`;
  if (!(LINK_SCHEMES as readonly string[]).includes(url.protocol)) {
    return `${url.protocol} links are not allowed; use an http, https or mailto address`;
  }
  if (url.protocol === 'mailto:') {
    return url.pathname === '' ? `"${shown}" has no e-mail address` : null;
  }
  return url.hostname === '' ? `"${shown}" has no host` : null;
}

/**
 * The link as a PDF stores it: the URL's own serialisation, in which spaces and non-ASCII
 * letters are percent-encoded (a PDF's URI is 7-bit ASCII). Null for a link `linkProblem`
 * refuses.
 */
export function linkHref(link: string): string | null {
  if (linkProblem(link) !== null) return null;
  return parsedUrl(link)?.href ?? null;
}

/** A QR or barcode value that is a web address: the link it also makes in a PDF. */
export function codeLinkHref(value: string): string | null {
  return /^https?:\/\//i.test(value) ? linkHref(value) : null;
}

function parsedUrl(link: string): URL | null {
  try {
    return new URL(link);
  } catch {
    return null;
  }
}
