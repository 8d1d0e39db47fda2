import net from 'node:net';

/**
 * Addresses an image URL may never reach, whatever its host name says: this machine, the local
 * network and addresses that are not one machine on the internet. Checked on the address the
 * connection is made to (after DNS resolution), so a name that resolves to 127.0.0.1 is refused.
 */
const RANGES: readonly { address: string; prefix: number; type: 'ipv4' | 'ipv6'; why: string }[] = [
  { address: '0.0.0.0', prefix: 8, type: 'ipv4', why: 'unspecified' },
  { address: '10.0.0.0', prefix: 8, type: 'ipv4', why: 'private' },
  { address: '100.64.0.0', prefix: 10, type: 'ipv4', why: 'carrier-grade NAT (shared)' },
  { address: '127.0.0.0', prefix: 8, type: 'ipv4', why: 'loopback' },
  { address: '169.254.0.0', prefix: 16, type: 'ipv4', why: 'link-local' },
  { address: '172.16.0.0', prefix: 12, type: 'ipv4', why: 'private' },
  { address: '192.0.0.0', prefix: 24, type: 'ipv4', why: 'reserved (IETF protocol assignments)' },
  { address: '192.168.0.0', prefix: 16, type: 'ipv4', why: 'private' },
  { address: '198.18.0.0', prefix: 15, type: 'ipv4', why: 'reserved (benchmarking)' },
  { address: '224.0.0.0', prefix: 4, type: 'ipv4', why: 'multicast' },
  { address: '240.0.0.0', prefix: 4, type: 'ipv4', why: 'reserved (or broadcast)' },
  { address: '::', prefix: 128, type: 'ipv6', why: 'unspecified' },
  { address: '::1', prefix: 128, type: 'ipv6', why: 'loopback' },
  // IPv4-mapped and IPv4-compatible forms reach IPv4 hosts, private ones included: refused whole.
  { address: '::ffff:0:0', prefix: 96, type: 'ipv6', why: 'IPv4-mapped' },
  { address: '::', prefix: 96, type: 'ipv6', why: 'IPv4-compatible' },
  { address: '64:ff9b::', prefix: 96, type: 'ipv6', why: 'NAT64 (maps IPv4 addresses)' },
  { address: '64:ff9b:1::', prefix: 48, type: 'ipv6', why: 'NAT64 (maps IPv4 addresses)' },
  { address: 'fc00::', prefix: 7, type: 'ipv6', why: 'private (unique local)' },
  { address: 'fe80::', prefix: 10, type: 'ipv6', why: 'link-local' },
  { address: 'fec0::', prefix: 10, type: 'ipv6', why: 'site-local' },
  { address: 'ff00::', prefix: 8, type: 'ipv6', why: 'multicast' },
];

const lists = RANGES.map((range) => {
  const list = new net.BlockList();
  list.addSubnet(range.address, range.prefix, range.type);
  return { list, type: range.type, why: range.why };
});

/**
 * Why `address` (an IP literal) may not be fetched from (`loopback`, `private` …), or null when it
 * is a public address. Anything that is not an IP literal is refused too.
 */
export function forbiddenAddressReason(address: string): string | null {
  const type = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  if (!type) return 'not an IP address';
  // Only rules of the address's own family: BlockList also matches IPv4 addresses against
  // IPv6 rules through their mapped form, which would refuse every IPv4 address.
  for (const rule of lists) {
    if (rule.type === type && rule.list.check(address, type)) return rule.why;
  }
  return null;
}
