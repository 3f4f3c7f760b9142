import type { Environment } from '@/lib/generated/prisma/enums';

export interface PortalScope {
  accountId: string;
  environment: Environment;
}
