import type { Environment } from '@/lib/generated/prisma/enums';

/** Every portal query is scoped to the signed-in user's account and the selected environment. */
export interface PortalScope {
  accountId: string;
  environment: Environment;
}

/** For ILIKE: the text matched literally, wherever it occurs. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
