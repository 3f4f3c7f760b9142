'use client';
import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { cn } from './cn';

/**
 * A label, one control, a hint and an error, wired for assistive technology: the label's htmlFor,
 * and the control's id, aria-invalid and aria-describedby are set on the single child element.
 */
export function Field({
  label,
  error,
  hint,
  required,
  className,
  id: givenId,
  children,
}: {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  id?: string;
  children: ReactElement<Record<string, unknown>>;
}) {
  const generated = useId();
  const id = givenId ?? (children.props.id as string | undefined) ?? generated;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
        'aria-required': required || undefined,
      })
    : children;
  return (
    <div className={cn('space-y-1', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
        {required ? (
          <span className="text-red-700" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {control}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-700" data-field-error>
          {error}
        </p>
      ) : null}
    </div>
  );
}
