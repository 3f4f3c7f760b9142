import 'server-only';
import { grantedScopes, type ApiScope } from '@/lib/auth/scopes';
import type { Environment } from '@/lib/generated/prisma/enums';

// Never the hash.
export const API_TOKEN_SELECT = {
  id: true,
  name: true,
  environment: true,
  displayPrefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  fullAccess: true,
  scopes: true,
  createdBy: { select: { id: true, email: true } },
} as const;

interface ApiTokenRow {
  id: string;
  name: string;
  environment: Environment;
  displayPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  fullAccess: boolean;
  scopes: string[];
  createdBy: { id: string; email: string } | null;
}

export function presentApiToken({ fullAccess, scopes, ...row }: ApiTokenRow) {
  const granted = grantedScopes({ fullAccess, scopes });
  return { ...row, scopes: granted === null ? null : ([...granted] satisfies ApiScope[]) };
}
