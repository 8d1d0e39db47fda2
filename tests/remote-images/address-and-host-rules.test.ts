import { describe, expect, it } from 'vitest';
import { forbiddenAddressReason } from '../../main/remote-images/forbidden-address.js';
import { hostAllowed } from '../../main/remote-images/host-allow-list.js';
import { ImageUrlSettings } from '../../shared/image-url-schemas.js';

describe('addresses an image URL may not reach', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd00::1', 'private (unique local)'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT (shared)'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['64:ff9b::a00:1', 'NAT64 (maps IPv4 addresses)'],
    ['255.255.255.255', 'reserved (or broadcast)'],
  ])('refuses %s (%s)', (address, why) => {
    expect(forbiddenAddressReason(address)).toBe(why);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '1.1.1.1'])(
    'lets the public address %s through',
    (address) => {
      expect(forbiddenAddressReason(address)).toBeNull();
    },
  );

  it('refuses what is not an IP literal', () => {
    expect(forbiddenAddressReason('localhost')).toBe('not an IP address');
  });
});

describe('the allow-list of hosts', () => {
  it('allows every host when it is empty', () => {
    expect(hostAllowed('images.example.com', [])).toBe(true);
  });

  it('matches a name exactly, ignoring case and a trailing dot', () => {
    expect(hostAllowed('images.example.com', ['images.example.com'])).toBe(true);
    expect(hostAllowed('IMAGES.example.com.', ['images.example.com'])).toBe(true);
    expect(hostAllowed('images.example.com.evil.net', ['images.example.com'])).toBe(false);
    expect(hostAllowed('evilimages.example.com', ['images.example.com'])).toBe(false);
  });

  it('lets a wildcard match subdomains at any depth but not the name itself', () => {
    const list = ['*.cdn.example.com'];
    expect(hostAllowed('a.cdn.example.com', list)).toBe(true);
    expect(hostAllowed('b.a.cdn.example.com', list)).toBe(true);
    expect(hostAllowed('cdn.example.com', list)).toBe(false);
    expect(hostAllowed('xcdn.example.com', list)).toBe(false);
    expect(hostAllowed('a.cdn.example.com.evil.net', list)).toBe(false);
  });

  it('takes host names and wildcards in the setting, lower-cased, and refuses the rest', () => {
    expect(
      ImageUrlSettings.parse({
        enabled: true,
        allowedHosts: [' Images.Example.com ', '*.cdn.x.io'],
      }).allowedHosts,
    ).toEqual(['images.example.com', '*.cdn.x.io']);
    for (const bad of ['https://x.com', 'x.com:443', 'x.com/path', '*', '*.', 'a.*.com', ''])
      expect(ImageUrlSettings.safeParse({ allowedHosts: [bad] }).success, bad).toBe(false);
    expect(ImageUrlSettings.parse({})).toEqual({ enabled: false, allowedHosts: [] });
  });
});
