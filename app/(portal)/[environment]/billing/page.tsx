import type { Metadata } from 'next';
import { BillingView } from '@/components/billing/billing-view';
import { RoleGate } from '@/components/layout/role-gate';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Billing' };

// GET /{environment}/billing: the running total, past invoices with their PDF and CSV, and the billing period (owners
// and admins: billing:read).
export default function BillingPage() {
  return (
    <RoleGate permission="billing:read" title="Billing" what="see invoices and what the account owes">
      <PageHeader
        title="Billing"
        description="What this environment's packages cost: the running total of what is not invoiced yet, and the invoices issued at each period's close, numbered without gaps and never changed."
      />
      <BillingView />
    </RoleGate>
  );
}
