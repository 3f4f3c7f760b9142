import { defineConfig } from 'prisma/config';

// Used by `prisma generate` only. Migrations run through scripts/migrate.mjs (the WebAssembly
// schema engine), because the CLI's native engine cannot be downloaded on our machines.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
