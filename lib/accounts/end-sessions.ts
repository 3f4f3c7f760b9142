import 'server-only';
import { recordUserAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { db } from '@/lib/db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function signOutEverywhere(options: { userId: string; origin: AuditOrigin }): Promise<number> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.session.deleteMany({ where: { userId: options.userId } });
    await recordUserAudit(
      options.origin,
      {
        userId: options.userId,
        action: 'auth.sessions_revoked',
        target: { type: 'user', id: options.userId },
        details: { sessions_ended: count, all: true },
      },
      tx,
    );
    return count;
  });
}

export async function endOneSession(options: { userId: string; publicId: string; origin: AuditOrigin }): Promise<boolean> {
  // The column is a uuid: anything else names no session (and must not reach the query, which would refuse it).
  if (!UUID.test(options.publicId)) return false;
  return db.$transaction(async (tx) => {
    const { count } = await tx.session.deleteMany({ where: { userId: options.userId, publicId: options.publicId } });
    if (count === 0) return false;
    await recordUserAudit(
      options.origin,
      {
        userId: options.userId,
        action: 'auth.sessions_revoked',
        target: { type: 'session', id: options.publicId },
        details: { sessions_ended: count, all: false },
      },
      tx,
    );
    return true;
  });
}
