import { Providers } from '@/components/providers';

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <Providers>
      <main className="flex min-h-screen items-start justify-center px-4 py-12 sm:items-center">
        <div className="w-full max-w-md">
          <p className="mb-6 text-center text-lg font-semibold text-brand-700">Carrier</p>
          {children}
        </div>
      </main>
    </Providers>
  );
}
