import Link from 'next/link';

// The pages anyone may open without an account: public tracking and the recipient mail's unsubscribe.
export default function PublicLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-3xl items-center justify-between gap-4 px-4 py-3">
          <Link href="/track" className="text-lg font-semibold text-brand-700">
            Carrier
          </Link>
          <span className="text-sm text-slate-600">Package tracking</span>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-8">
        {children}
      </main>
      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto max-w-3xl px-4 py-4 text-xs text-slate-600">
          Questions about what is in the package, or where it is going? The shipper who sent it can help.{' '}
          <Link href="/sign-in" className="font-medium text-brand-700 underline">
            Shippers sign in here
          </Link>
          .
        </div>
      </footer>
    </div>
  );
}
