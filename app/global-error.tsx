'use client';
import Link from 'next/link';
import './globals.css';

// The root layout itself failed: this replaces it, so it has its own <html> and <body>.
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <main className="flex min-h-screen items-start justify-center px-4 py-12 sm:items-center">
          <div role="alert" className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
            <p className="mb-4 text-lg font-semibold text-brand-700">Carrier</p>
            <h1 className="text-2xl font-semibold tracking-tight">Something went wrong</h1>
            <p className="mt-2 text-sm text-slate-600">
              The portal could not be shown{error.digest ? ` (reference ${error.digest})` : ''}. Try again, or come back in a
              minute.
            </p>
            <div className="mt-6 flex gap-4 text-sm">
              <button
                type="button"
                onClick={reset}
                className="rounded-md bg-brand-600 px-3 py-2 font-medium text-white hover:bg-brand-700"
              >
                Try again
              </button>
              <Link href="/" className="px-1 py-2 font-medium text-brand-700 underline">
                Go to the portal
              </Link>
            </div>
          </div>
        </main>
      </body>
    </html>
  );
}
