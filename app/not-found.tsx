import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Page not found' };

// Any address that is no page and not under /test or /live: branded, with the ways back in.
export default function NotFound() {
  return (
    <main id="main" className="flex min-h-screen items-start justify-center px-4 py-12 sm:items-center">
      <div className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <p className="mb-4 text-lg font-semibold text-brand-700">Carrier</p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Page not found</h1>
        <p className="mt-2 text-sm text-slate-600">
          There is no page at this address. It may have moved, or the link may be mistyped.
        </p>
        <nav aria-label="Where to go instead" className="mt-6 flex flex-wrap gap-4 text-sm">
          <Link href="/" className="font-medium text-brand-700 underline">
            Go to the portal
          </Link>
          <Link href="/sign-in" className="font-medium text-brand-700 underline">
            Sign in
          </Link>
          <Link href="/sign-up" className="font-medium text-brand-700 underline">
            Create an account
          </Link>
        </nav>
      </div>
    </main>
  );
}
