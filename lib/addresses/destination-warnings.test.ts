import { describe, expect, it } from 'vitest';
import { addDestinationWarnings, containerDestinationWarnings } from './destination-warnings';
import { addressAgrees, validateAddress } from './validate-address';

describe('destination warnings', () => {
  it('says nothing for an address that agrees, spelled in any case, or without city and state', () => {
    const warnings: never[] = [];
    for (const pkg of [
      { ToCity: 'Beverly Hills', ToState: 'CA', ToPostalCode: '90210', ToCountry: 'US' },
      { ToCity: 'BEVERLY HILLS', ToState: 'ca', ToPostalCode: '90210' },
      { ToCity: 'St. Louis', ToState: 'Missouri', ToPostalCode: '63101', ToCountry: 'United States' },
      { ToCity: 'Toronto', ToState: 'ON', ToPostalCode: 'M5V 2T6', ToCountry: 'CA' },
      { ToPostalCode: '10001-1234' },
      { ToCity: 'Toronto' },
    ]) {
      expect(addDestinationWarnings(warnings, pkg, 'package')).toBe(0);
    }
    expect(warnings).toEqual([]);
  });

  it('names the package and each field that disagrees with the postal code', () => {
    const warnings: { path: string; message: string }[] = [];
    const pkg = { TrackingNumber: 'TN1', ToCity: 'Toronto', ToState: 'ON', ToPostalCode: '90210', ToCountry: 'US' };
    expect(addDestinationWarnings(warnings, pkg, 'package')).toBe(2);
    expect(warnings).toEqual([
      { path: 'package.ToState', message: 'is "ON", but ZIP 90210 is in CA (package TN1)' },
      { path: 'package.ToCity', message: 'is "Toronto", but ZIP 90210 is Beverly Hills, CA (package TN1)' },
    ]);
    const ca: typeof warnings = [];
    addDestinationWarnings(ca, { ToState: 'BC', ToPostalCode: 'M5V 2T6', ToCountry: 'US' }, 'ContainerDetails', 3);
    expect(ca.map((w) => w.path)).toEqual(['ContainerDetails[3].ToCountry', 'ContainerDetails[3].ToState']);
  });

  it('does not check an address of a country the dataset does not cover (a German 5-digit code)', () => {
    const warnings: never[] = [];
    expect(addDestinationWarnings(warnings, { ToCity: 'Berlin', ToPostalCode: '10117', ToCountry: 'DE' }, 'package')).toBe(0);
    expect(addDestinationWarnings(warnings, { ToCity: 'Paris', ToPostalCode: '75002', ToCountry: 'France' }, 'package')).toBe(0);
  });

  it('names the first 50 packages of a container with a warning and counts the rest', () => {
    const packages = Array.from({ length: 60 }, (_, i) => ({
      TrackingNumber: `T${i}`,
      ToCity: 'Toronto',
      ToPostalCode: '90210',
    }));
    packages.unshift({ TrackingNumber: 'OK', ToCity: 'Beverly Hills', ToPostalCode: '90210' });
    const warnings = containerDestinationWarnings(packages);
    expect(warnings).toHaveLength(51);
    expect(warnings[0]).toEqual({
      path: 'ContainerDetails[1].ToCity',
      message: 'is "Toronto", but ZIP 90210 is Beverly Hills, CA (package T0)',
    });
    expect(warnings[50]).toEqual({
      path: 'ContainerDetails',
      message: '10 more package(s) have an address that disagrees with its postal code; they are not named',
    });
  });

  it('the fast path never says an address agrees when the full check has a message', () => {
    const cities = ['Beverly Hills', 'beverly hills', 'Toronto', 'New York', 'Saint Louis', 'Beverly-Hills', ''];
    const states = ['CA', 'ca', 'ON', 'NY', 'California', 'C A', ''];
    const codes = ['90210', '10001', '63101', '00000', '10001-1234', 'M5V 2T6', 'X0A 1A1', 'W1A 1A1', 'D1A 1A1'];
    const countries = ['US', 'CA', '', 'Canada', 'usa', 'MX'];
    for (const city of cities)
      for (const state of states)
        for (const postalCode of codes)
          for (const country of countries) {
            const input = { city: city || undefined, state: state || undefined, postalCode, country: country || undefined };
            if (addressAgrees(input)) expect(validateAddress(input).messages, JSON.stringify(input)).toEqual([]);
          }
  });
});
