import 'server-only';
import { startPeriodic } from '@/lib/jobs/periodic';
import { log } from '@/lib/log';
import { issueDueInvoices } from './invoices';

const PER_RUN = 50;

export function startInvoiceTimer(intervalMs: number): { stop: () => void } {
  return startPeriodic({
    name: 'invoice issue',
    intervalMs,
    run: async () => {
      const issued = await issueDueInvoices({ now: new Date(), limit: PER_RUN });
      if (issued > 0) log.info({ issued }, 'issued the invoices of periods that ended');
      return issued >= PER_RUN;
    },
  });
}
