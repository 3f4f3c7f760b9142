import type { Metadata } from 'next';
import Link from 'next/link';
import { Card, buttonClass } from '@/components/ui';
import { findUnsubscribe } from '@/lib/recipient-mail/unsubscribe';

export const metadata: Metadata = {
  title: { absolute: 'Unsubscribe from tracking e-mails · Carrier' },
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

// GET /unsubscribe?token=: the link in a recipient mail. Opening it changes nothing (mail scanners open links): the
// button posts to /api/unsubscribe, which comes back here with ?done=1.
export default async function UnsubscribePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const token = typeof query.token === 'string' ? query.token : '';
  if (query.done === '1') {
    return (
      <Outcome title="You are unsubscribed">
        This address gets no more tracking e-mails from that shipper through Carrier. You can still follow a package on its{' '}
        <Link href="/track" className="font-medium text-brand-700 underline">
          tracking page
        </Link>
        .
      </Outcome>
    );
  }
  const target = token ? await findUnsubscribe(token) : undefined;
  if (!target) {
    return (
      <Outcome title="This link does not work">
        It may be incomplete: open it again from the e-mail, or copy the whole address into your browser.
      </Outcome>
    );
  }
  const from = target.shipper ? `from ${target.shipper}` : 'from this shipper';
  if (target.unsubscribed) {
    return <Outcome title="You are already unsubscribed">This address gets no more tracking e-mails {from}.</Outcome>;
  }
  return (
    <Outcome title="Stop tracking e-mails?">
      <p>
        You get an e-mail when a package {from} is out for delivery, delivered or held up. Unsubscribe, and this address gets none
        of them any more, for any package {from}.
      </p>
      <form method="post" action="/api/unsubscribe" className="mt-4">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={buttonClass()}>
          Unsubscribe
        </button>
      </form>
    </Outcome>
  );
}

function Outcome({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card>
      <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
      <div className="mt-2 text-sm text-slate-700">{children}</div>
    </Card>
  );
}
