// `prisma generate` needs no schema engine, but the CLI looks for one and would try to download it.
// Pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file stops that lookup.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const result = spawnSync('npx', ['--no-install', 'prisma', 'generate'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? here,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
process.exit(result.status ?? 1);
