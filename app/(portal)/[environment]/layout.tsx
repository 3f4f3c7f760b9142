import { notFound, redirect } from 'next/navigation';
import { PortalHeader } from '@/components/layout/portal-header';
import { PortalProvider } from '@/components/layout/portal-context';
import { Providers } from '@/components/providers';
import { getSession, listUserAccounts } from '@/lib/auth/session';
import { isEnvironment } from '@/lib/portal/paths';

// Every portal page lives under /test/… or /live/…: the environment is the page's, from its URL, so
// a tab showing Test reads and writes test data whatever another tab switched to. Any other first
// segment is not found. Every page needs a session; pages read their data through /portal-api, which
// checks again and is told the page's environment by the fetcher.
export default async function PortalLayout({
  children,
  params,
}: {
  children: React.ReactNode;
  params: Promise<{ environment: string }>;
}) {
  const { environment } = await params;
  if (!isEnvironment(environment)) notFound();
  const session = await getSession();
  if (!session) redirect('/sign-in');
  const accounts = await listUserAccounts({ userId: session.user.id, currentAccountId: session.account.id });
  return (
    <Providers>
      <meta name="csrf-token" content={session.csrfToken} />
      <PortalProvider
        value={{
          environment,
          csrfToken: session.csrfToken,
          user: session.user,
          account: session.account,
          role: session.role,
          accounts,
        }}
      >
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <PortalHeader />
        {/* keyed by environment so every client component starts fresh in the other environment */}
        <main id="main" key={environment} className="mx-auto max-w-7xl px-4 py-6 sm:py-8">
          {children}
        </main>
      </PortalProvider>
    </Providers>
  );
}
