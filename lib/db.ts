import 'server-only';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { env } from '@/lib/env';

// One Prisma client per process, created on first use: `next build` imports route modules
// without a database, and must not need DATABASE_URL. Kept on globalThis so Next's dev-mode
// module reloads reuse it.
const globalForDb = globalThis as unknown as { prisma?: PrismaClient };

function client(): PrismaClient {
  if (!globalForDb.prisma) {
    const { DATABASE_URL, DATABASE_POOL_SIZE } = env();
    const adapter = new PrismaPg({ connectionString: DATABASE_URL, max: DATABASE_POOL_SIZE, connectionTimeoutMillis: 5_000 });
    globalForDb.prisma = new PrismaClient({ adapter });
  }
  return globalForDb.prisma;
}

export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const value = Reflect.get(client(), property);
    return typeof value === 'function' ? value.bind(client()) : value;
  },
});

export { Prisma } from '@/lib/generated/prisma/client';
export type { Environment } from '@/lib/generated/prisma/client';
