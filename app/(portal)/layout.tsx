import { redirect } from 'next/navigation';
import { PortalHeader } from '@/components/layout/portal-header';
import { PortalProvider } from '@/components/layout/portal-context';
import { Providers } from '@/components/providers';
import { getSession } from '@/lib/auth/session';
import { getEnvironment } from '@/lib/portal/environment';

// Every page under (portal) needs a session; pages read their data through /portal-api, which checks again.
export default async function PortalLayout({ children }: { children: React.ReactNode }) {
  const session = await getSession();
  if (!session) redirect('/sign-in');
  const environment = await getEnvironment();
  return (
    <Providers>
      <meta name="csrf-token" content={session.csrfToken} />
      <PortalProvider value={{ environment, csrfToken: session.csrfToken, user: session.user, account: session.account }}>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <PortalHeader />
        {/* keyed by environment so every client component starts fresh after a switch */}
        <main id="main" key={environment} className="mx-auto max-w-7xl px-4 py-6 sm:py-8">
          {children}
        </main>
      </PortalProvider>
    </Providers>
  );
}
