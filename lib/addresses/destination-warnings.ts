// Framework-free. The address check of POST /addresses/validate applied to a package's destination, as the
// `warnings` of the answer that accepted it: never a refusal (the contract accepts such packages).
import type { TWarning } from '@/lib/schemas/unknown-fields';
import { addressAgrees, checkedCountry, validateAddress, type AddressMessage } from './validate-address';

export interface Destination {
  TrackingNumber?: string;
  ToCity?: string;
  ToState?: string;
  ToPostalCode?: string;
  ToCountry?: string;
}

const FIELD: Record<AddressMessage['path'], string> = {
  postal_code: 'ToPostalCode',
  city: 'ToCity',
  state: 'ToState',
  country: 'ToCountry',
};

/**
 * Appends a warning per destination field that disagrees with the postal code, each at `${at}[index].<field>` (or
 * `${at}.<field>`) and naming the
 * package's tracking number. Nothing is allocated for an address that agrees. Addresses of countries the dataset
 * does not cover, and packages without a postal code, are not checked.
 */
export function addDestinationWarnings(into: TWarning[], pkg: Destination, at: string, index?: number): number {
  const postalCode = pkg.ToPostalCode;
  if (!postalCode || !checkedCountry(pkg.ToCountry)) return 0;
  const input = { postalCode, city: pkg.ToCity, state: pkg.ToState, country: pkg.ToCountry };
  if (addressAgrees(input)) return 0;
  const { messages } = validateAddress(input);
  const named = pkg.TrackingNumber ? ` (package ${pkg.TrackingNumber})` : '';
  const path = index === undefined ? at : `${at}[${index}]`;
  for (const m of messages) into.push({ path: `${path}.${FIELD[m.path]}`, message: `${m.message}${named}` });
  return messages.length;
}

/** At most this many packages of a container are named; one more warning counts the rest. */
const PACKAGES_NAMED = 50;

/** The container's packages' address warnings: each at ContainerDetails[i], the first 50 packages with any named. */
export function containerDestinationWarnings(packages: readonly Destination[]): TWarning[] {
  const warnings: TWarning[] = [];
  let named = 0;
  let more = 0;
  for (let i = 0; i < packages.length; i++) {
    if (named < PACKAGES_NAMED) {
      if (addDestinationWarnings(warnings, packages[i]!, 'ContainerDetails', i) > 0) named++;
    } else if (addDestinationWarnings([], packages[i]!, '') > 0) more++;
  }
  if (more > 0) {
    warnings.push({
      path: 'ContainerDetails',
      message: `${more} more package(s) have an address that disagrees with its postal code; they are not named`,
    });
  }
  return warnings;
}
