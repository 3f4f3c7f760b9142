import { describe, expect, it } from 'vitest';
import { bareToEnvironmentPath, environmentOfPath, isEnvironment, portalPath, switchEnvironmentHref } from './paths';

describe('portal paths carry the environment', () => {
  it('prefixes a portal path with the environment, and refuses anything but a rooted path', () => {
    expect(portalPath('test', '/manifests/new')).toBe('/test/manifests/new');
    expect(portalPath('live', '/webhooks?deleted=1')).toBe('/live/webhooks?deleted=1');
    expect(portalPath('live', '/')).toBe('/live');
    expect(() => portalPath('test', 'manifests')).toThrow(/one "\/"/);
    expect(() => portalPath('test', '//evil.example/x')).toThrow(/one "\/"/);
  });

  it('knows only test and live, exactly', () => {
    expect(['test', 'live', 'TEST', 'Live', '', 'prod', undefined, null].map(isEnvironment)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(environmentOfPath('/live/manifests')).toBe('live');
    expect(environmentOfPath('/test')).toBe('test');
    expect(environmentOfPath('/testing/manifests')).toBeNull();
    expect(environmentOfPath('/manifests/test')).toBeNull();
    expect(environmentOfPath('/')).toBeNull();
  });

  it('sends a bare portal URL (old bookmark) to the same page in the given environment, and nothing else', () => {
    expect(bareToEnvironmentPath('/dashboard', 'live')).toBe('/live/dashboard');
    expect(bareToEnvironmentPath('/manifests/new', 'test')).toBe('/test/manifests/new');
    expect(bareToEnvironmentPath('/webhooks/we_1', 'live')).toBe('/live/webhooks/we_1');
    for (const other of [
      '/',
      '/sign-in',
      '/api/1.1/wf/rate',
      '/version-test/api/1.1/wf/rate',
      '/portal-api/tokens',
      '/test/dashboard',
      '/dashboards',
      '/favicon.ico',
    ]) {
      expect(bareToEnvironmentPath(other, 'live'), other).toBeNull();
    }
  });

  it('switches to the same page in the other environment; a record goes to its list; filters stay on lists only', () => {
    expect(switchEnvironmentHref('/test/manifests/new', '', 'live')).toBe('/live/manifests/new');
    expect(switchEnvironmentHref('/live/tokens', '', 'test')).toBe('/test/tokens');
    expect(switchEnvironmentHref('/test/manifests/MAN-01ABC', '', 'live')).toBe('/live/manifests');
    expect(switchEnvironmentHref('/live/webhooks/we_123', '', 'test')).toBe('/test/webhooks');
    expect(switchEnvironmentHref('/test/manifests', 'q=ULD&type=container', 'live')).toBe('/live/manifests?q=ULD&type=container');
    expect(switchEnvironmentHref('/test/packages', '?tracking=1Z', 'live')).toBe('/live/packages?tracking=1Z');
    expect(switchEnvironmentHref('/test/webhooks', 'deleted=1', 'live')).toBe('/live/webhooks');
    expect(switchEnvironmentHref('/test/packages', '?status=received&cursor=abc&back=0', 'live')).toBe(
      '/live/packages?status=received',
    );
    expect(switchEnvironmentHref('/test/packages', '?cursor=abc', 'live')).toBe('/live/packages');
    expect(switchEnvironmentHref('/test/packages/1Z0001', '', 'live')).toBe('/live/packages');
    expect(switchEnvironmentHref('/test', '', 'live')).toBe('/live');
    expect(switchEnvironmentHref('/live/dashboard', '', 'live')).toBe('/live/dashboard');
  });
});
