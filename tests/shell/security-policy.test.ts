import { describe, expect, it } from 'vitest';
import {
  decideNavigation,
  isTrustedSender,
  originOf,
  UI_CONTENT_SECURITY_POLICY,
  withContentSecurityPolicy,
} from '../../main/shell/security-policy.js';

const CORE = 'http://127.0.0.1:5317';

describe('IPC sender check', () => {
  it('trusts frames of the core’s origin only', () => {
    expect(isTrustedSender('http://127.0.0.1:5317/ui/batches/42', CORE)).toBe(true);
    expect(isTrustedSender('http://127.0.0.1:5317', CORE)).toBe(true);
  });

  it('refuses another port, another loopback name, https and look-alike hosts', () => {
    for (const url of [
      'http://127.0.0.1:5318/ui/',
      'http://localhost:5317/ui/',
      'https://127.0.0.1:5317/ui/',
      'http://127.0.0.1.evil.example:5317/ui/',
      'http://evil.example/?http://127.0.0.1:5317',
      'http://user@127.0.0.2:5317/',
    ]) {
      expect(isTrustedSender(url, CORE), url).toBe(false);
    }
  });

  it('refuses status pages, file pages, missing frames and a core that is not running', () => {
    expect(isTrustedSender('data:text/html,<h1>Reconnecting</h1>', CORE)).toBe(false);
    expect(isTrustedSender('file:///etc/passwd', CORE)).toBe(false);
    expect(isTrustedSender('about:blank', CORE)).toBe(false);
    expect(isTrustedSender(undefined, CORE)).toBe(false);
    expect(isTrustedSender('', CORE)).toBe(false);
    expect(isTrustedSender('not a url', CORE)).toBe(false);
    expect(isTrustedSender('http://127.0.0.1:5317/ui/', null)).toBe(false);
  });

  it('treats opaque origins as no origin at all', () => {
    expect(originOf('data:text/html,x')).toBeNull();
    expect(originOf('http://127.0.0.1:5317/ui/?a=1#b')).toBe(CORE);
  });
});

describe('navigation policy', () => {
  it('allows the core’s own pages', () => {
    expect(decideNavigation('http://127.0.0.1:5317/ui/settings', CORE)).toEqual({
      action: 'allow',
    });
  });

  it('sends https links to the OS browser and keeps the window where it is', () => {
    expect(decideNavigation('https://example.com/docs', CORE)).toEqual({
      action: 'open-externally',
      url: 'https://example.com/docs',
    });
  });

  it('denies every other scheme and other local servers, never opening them anywhere', () => {
    for (const url of [
      'http://example.com/',
      'http://127.0.0.1:8080/',
      'file:///C:/Windows/System32/calc.exe',
      'javascript:alert(1)',
      'smb://server/share',
      'data:text/html,hi',
      'https://user:secret@example.com/',
      'not a url',
    ]) {
      expect(decideNavigation(url, CORE), url).toEqual({ action: 'deny' });
    }
  });

  it('allows nothing of the core while it has no origin (not started, or failed)', () => {
    expect(decideNavigation('http://127.0.0.1:5317/ui/', null)).toEqual({ action: 'deny' });
  });
});

describe('Content-Security-Policy', () => {
  it('is the strict policy of DESIGN §3', () => {
    expect(UI_CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(UI_CONTENT_SECURITY_POLICY).toContain("img-src 'self' data: blob:");
    expect(UI_CONTENT_SECURITY_POLICY).toContain("style-src 'self' 'unsafe-inline'");
    expect(UI_CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
    expect(UI_CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(UI_CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('is added to the core’s responses, keeping a policy the core sent (both are enforced)', () => {
    const headers = withContentSecurityPolicy(
      'http://127.0.0.1:5317/ui/',
      { 'content-security-policy': ["frame-ancestors 'none'"], 'Content-Type': ['text/html'] },
      CORE,
    );
    expect(headers['Content-Security-Policy']).toEqual([
      "frame-ancestors 'none'",
      UI_CONTENT_SECURITY_POLICY,
    ]);
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['Content-Type']).toEqual(['text/html']);
  });

  it('leaves responses of other origins alone', () => {
    const original = { 'Content-Type': ['text/html'] };
    expect(withContentSecurityPolicy('https://example.com/', original, CORE)).toEqual(original);
    expect(withContentSecurityPolicy('http://127.0.0.1:5317/', undefined, CORE)).toEqual({
      'Content-Security-Policy': [UI_CONTENT_SECURITY_POLICY],
    });
  });
});
