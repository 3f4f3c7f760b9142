import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { apiBases, apiRoutes } from '@/lib/http/routes';

// Never the raw path, so that ids and a stranger's made-up paths cannot create new time series. The portal's templates
// come from Next's build (.next/routes-manifest.json, the regexes Next routes with); anything else is `other`.

interface ManifestRoute {
  page: string;
  regex: string;
}

const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

function apiTemplates(): { page: string; regex: RegExp }[] {
  return apiBases().flatMap(([base]) =>
    apiRoutes().map((route) => {
      const page = base + route.pattern;
      const regex = page.replace(/[.]/g, '\\.').replace(/:[A-Za-z]+/g, '[^/]+');
      return { page, regex: new RegExp(`^${regex}/*$`) };
    }),
  );
}

export function routeLabeler(options: { nextDir?: string } = {}): (pathname: string) => string {
  const api = apiTemplates();
  const routes: { page: string; regex: RegExp }[] = [];
  if (options.nextDir) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(options.nextDir, 'routes-manifest.json'), 'utf8')) as {
        staticRoutes?: ManifestRoute[];
        dynamicRoutes?: ManifestRoute[];
      };
      // Static first: /[environment]/manifests/new before /[environment]/manifests/[id], as Next does.
      for (const route of [...(manifest.staticRoutes ?? []), ...(manifest.dynamicRoutes ?? [])]) {
        // The API's catch-all route handlers: labelled below from the API's own table.
        if (route.page.includes('[[...path]]')) continue;
        routes.push({ page: route.page, regex: new RegExp(route.regex) });
      }
    } catch {
      // No build (npm run dev before the first page): the portal's requests are `other`.
    }
  }
  return (pathname) => {
    if (PROBES.has(pathname)) return pathname;
    if (pathname.includes('/api/1.1/')) for (const route of api) if (route.regex.test(pathname)) return route.page;
    if (pathname.startsWith('/_next/static/')) return '/_next/static';
    if (pathname.startsWith('/_next/')) return '/_next';
    for (const route of routes) if (route.regex.test(pathname)) return route.page;
    if (/^\/(?:version-test\/)?api\//.test(pathname)) return 'api:unmatched';
    return 'other';
  };
}
