import type { InputHTMLAttributes, ReactNode } from 'react';

/** A settings checkbox with its label and a line that says what it does. */
export function CheckboxField({
  label,
  hint,
  ...input
}: { label: ReactNode; hint: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <label className="flex items-start gap-3 text-sm">
      <input type="checkbox" className="mt-0.5 h-4 w-4 rounded border-slate-400 text-brand-600" {...input} />
      <span>
        <span className="font-medium text-slate-900">{label}</span>
        <span className="block text-slate-600">{hint}</span>
      </span>
    </label>
  );
}
