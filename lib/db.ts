import 'server-only';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { env } from '@/lib/env';

// One Prisma client per process. Kept on globalThis so Next's dev-mode module reloads reuse it.
const globalForDb = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  const { DATABASE_URL, DATABASE_POOL_SIZE } = env();
  const adapter = new PrismaPg({ connectionString: DATABASE_URL, max: DATABASE_POOL_SIZE, connectionTimeoutMillis: 5_000 });
  return new PrismaClient({ adapter });
}

export const db: PrismaClient = globalForDb.prisma ?? (globalForDb.prisma = createClient());

export { Prisma } from '@/lib/generated/prisma/client';
export type { Environment } from '@/lib/generated/prisma/client';
