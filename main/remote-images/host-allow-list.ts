/**
 * Whether a URL's host is on the allow-list. `images.example.com` allows that host only;
 * `*.cdn.example.com` allows every subdomain of `cdn.example.com` at any depth, but not
 * `cdn.example.com` itself (list both for both). An empty list allows every host: the address
 * rules (forbidden-address.ts) still apply.
 */
export function hostAllowed(host: string, allowedHosts: readonly string[]): boolean {
  if (allowedHosts.length === 0) return true;
  // URL.hostname is already lower-case; a trailing dot names the same host.
  const name = host.toLowerCase().replace(/\.$/, '');
  return allowedHosts.some((pattern) =>
    pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern,
  );
}
