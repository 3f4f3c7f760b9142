import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from './cn';

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div className={cn('relative rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6', className)} {...props} />
  );
}

export function CardTitle({
  children,
  as: Tag = 'h2',
  className,
}: {
  children: ReactNode;
  as?: 'h2' | 'h3';
  className?: string;
}) {
  return <Tag className={cn('text-base font-semibold text-slate-900', className)}>{children}</Tag>;
}
