'use client';
import { useQuery } from '@tanstack/react-query';
import { forwardRef, useEffect, useId, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { cn, Input } from '@/components/ui';
import { usePortalEnvironment } from '@/components/layout/portal-context';
import type { TAirportsResponse } from '@/lib/schemas/portal-responses';

type Airport = TAirportsResponse['airports'][number];

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * An ARIA 1.2 combobox (editable, list autocomplete): type a code, city or airport name; arrow keys
 * move through the suggestions, Enter picks one, Escape closes. The field's value is the IATA code.
 * Field (the parent) supplies id, aria-invalid and aria-describedby.
 */
export const AirportCombobox = forwardRef<
  HTMLInputElement,
  {
    id?: string;
    name: string;
    value: string;
    onChange: (value: string) => void;
    onBlur: () => void;
    'aria-invalid'?: boolean;
    'aria-describedby'?: string;
  }
>(function AirportCombobox({ id, name, value, onChange, onBlur, ...aria }, ref) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const query = useDebounced(value.trim(), 150);
  const portal = usePortalEnvironment();
  const results = useQuery({
    queryKey: portal.key('airports', query),
    queryFn: ({ signal }) => portal.fetch<TAirportsResponse>(`/portal-api/airports?q=${encodeURIComponent(query)}`, { signal }),
    enabled: open && query.length >= 2,
    staleTime: Infinity,
  });
  const options = query.length >= 2 ? (results.data?.airports ?? []) : [];
  const expanded = open && options.length > 0;

  function pick(airport: Airport) {
    onChange(airport.iata);
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (options.length ? (i + 1) % options.length : -1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => (options.length ? (i <= 0 ? options.length - 1 : i - 1) : -1));
    } else if (event.key === 'Enter' && expanded && active >= 0) {
      event.preventDefault();
      pick(options[active]);
    } else if (event.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  }

  return (
    <div className="relative">
      <Input
        ref={ref}
        id={id}
        name={name}
        value={value}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder="Code, city or airport"
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          onChange(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          // Let a click on an option land before the list closes.
          setTimeout(() => setOpen(false), 150);
          onBlur();
        }}
        {...aria}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Airports"
        className={cn(
          'absolute z-20 mt-1 max-h-72 w-full overflow-auto rounded-md border border-slate-300 bg-white py-1 text-sm shadow-lg sm:w-96',
          expanded ? 'block' : 'hidden',
        )}
      >
        {options.map((airport, i) => (
          <li
            key={airport.iata}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(airport)}
            className={cn(
              'cursor-pointer px-3 py-2',
              i === active ? 'bg-brand-600 text-white' : 'text-slate-800 hover:bg-slate-100',
            )}
          >
            <span className="font-mono font-semibold">{airport.iata}</span> · {airport.city}, {airport.country}
            <span className={cn('block truncate text-xs', i === active ? 'text-white' : 'text-slate-600')}>{airport.name}</span>
          </li>
        ))}
      </ul>
    </div>
  );
});
