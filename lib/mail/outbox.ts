import 'server-only';
import { db } from '@/lib/db';

// The outbox page checks outboxEnabled() first.
export function listOutbox(options: { limit?: number } = {}) {
  return db.outboxMail.findMany({
    orderBy: { createdAt: 'desc' },
    take: options.limit ?? 50,
    select: { id: true, to: true, subject: true, text: true, links: true, createdAt: true },
  });
}
