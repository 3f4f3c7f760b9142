import type { Environment } from '@/lib/generated/prisma/enums';

/** Every portal query is scoped to the signed-in user's account and the selected environment. */
export interface PortalScope {
  accountId: string;
  environment: Environment;
}
