import 'server-only';
import { hashPassword } from '@/lib/auth/password';
import { admitSignUp } from '@/lib/auth/sign-up-limiter';
import { db, Prisma } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import type { TSignUpRequest } from '@/lib/schemas/portal';

function taken(path: 'company' | 'email'): AppError {
  const message =
    path === 'company'
      ? 'An account with this company name already exists. Ask a colleague to invite you, or use another name.'
      : 'A user with this e-mail already exists. Sign in instead.';
  return new AppError('conflict', message, { details: [{ path, message }] });
}

/**
 * Creates the shipper's Account and its first User in one transaction; 409 names the field that is
 * taken; 429 past the per-address limit (`address`: the client's, lib/http/client-address.ts).
 */
export async function signUp(options: TSignUpRequest & { address: string }): Promise<{ userId: string; accountId: string }> {
  await admitSignUp(options.address);
  const company = options.company.trim();
  // Names differing only by case would confuse people reading a manifest, so they count as taken.
  const existing = await db.account.findFirst({
    where: { name: { equals: company, mode: 'insensitive' } },
    select: { id: true },
  });
  if (existing) throw taken('company');
  if (await db.user.findUnique({ where: { email: options.email }, select: { id: true } })) throw taken('email');
  const passwordHash = await hashPassword(options.password);
  try {
    return await db.$transaction(async (tx) => {
      const account = await tx.account.create({ data: { name: company }, select: { id: true } });
      const user = await tx.user.create({ data: { email: options.email, passwordHash }, select: { id: true } });
      // Whoever creates an account owns it.
      await tx.membership.create({ data: { accountId: account.id, userId: user.id, role: 'owner' } });
      return { userId: user.id, accountId: account.id };
    });
  } catch (error) {
    // Two sign-ups racing for the same name or e-mail: the unique index decides.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      const target = JSON.stringify(error.meta ?? {});
      throw taken(target.includes('email') ? 'email' : 'company');
    }
    throw error;
  }
}
