import { quoteRatesOperation } from '@/lib/api/operations/quote-rates';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/rates: the rate calculator; POST /wf/rate's own operation, so the same parse, rating and answer.
export const POST = portalOperation(quoteRatesOperation, { permission: 'rates:quote' });
