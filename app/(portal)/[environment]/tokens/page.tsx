import type { Metadata } from 'next';
import { RoleGate } from '@/components/layout/role-gate';
import { TokensPanel } from '@/components/tokens/tokens-panel';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'API tokens' };

// GET /{environment}/tokens
export default function TokensPage() {
  return (
    <RoleGate permission="tokens:manage" title="API tokens" what="manage API tokens">
      <PageHeader
        title="API tokens"
        description="Send a token as “Authorization: Token <token>”. Revoked tokens stop working within seconds."
      />
      <TokensPanel />
    </RoleGate>
  );
}
