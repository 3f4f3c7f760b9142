// Request bodies shaped like the published samples: `lenght`, empty strings for "no value",
// numbers where text is documented, the spaced container field names, a Canadian postal code.

export function rateSampleAll() {
  return {
    weight: 5,
    weight_unit: 'lb',
    from_zip: '10001',
    to_zip: '90210',
    service: '',
    lenght: 10,
    width: 8,
    height: 6,
    origin: 'JFK',
    destination: 'LAX',
  };
}

export function rateSampleExpress() {
  return {
    weight: '2.5',
    weight_unit: 'lb',
    from_zip: '10001',
    to_zip: '60601',
    service: 'Carrier Express',
    lenght: '12',
    width: '10',
    height: '4',
    origin: '',
    destination: '',
  };
}

export function rateSampleAirSkip() {
  return {
    weight: 3,
    weight_unit: 'kg',
    service: 'AirSkip',
    lenght: 14,
    width: 10,
    height: 8,
    origin: 'JFK',
    destination: 'LAX',
  };
}

// 000-12345675: serial 1234567 mod 7 = 5 is the check digit.
export const VALID_AWB = '00012345675';

export function containerSample(containerId: string, trackingNumbers: string[] = []) {
  return {
    ManifestDate: '2026-11-23T08:00:00Z',
    ServiceName: 'AirSkip',
    FromName: 'Dock 4',
    FromCompany: 'Acme Parcels',
    FromPhone: '555-0100',
    FromEmail: 'dock@acme.example',
    FromAddress1: '1 Industrial Way',
    FromAddress2: '',
    FromCity: 'Newark',
    FromState: 'NJ',
    FromPostalCode: '07114',
    FromCountry: 'US',
    FromTerminal: 'EWR',
    ToTerminal: 'LAX',
    Consignee: 'Carrier LAX hub',
    SortCode: 'LAX-1',
    FinalMileCarrier: 'Carrier',
    ContainerID: containerId,
    ContainerCount: 1,
    'Container Weight': 120.5,
    'Container Name': 42,
    ContainerLength: 48,
    ContainerWidth: 40,
    ContainerHeight: 36.25,
    ShipmentDescription: 'Apparel',
    AWB: VALID_AWB,
    Reference1: 'PO-1',
    Reference2: '',
    Reference3: '',
    Reference4: 'extra',
    ContainerDetails: trackingNumbers.map((tn) => containerDetail(tn)),
  };
}

export function containerDetail(trackingNumber: string) {
  return {
    TrackingNumber: trackingNumber,
    PackageWeight: 2.5,
    PackageWeightUnit: 'lb',
    PackageSizeLength: 10,
    PackageSizeWidth: 8,
    PackageSizeHeight: 4,
    ToName: 'Jane Doe',
    ToPhone: '555-0101',
    ToEmail: 'jane@example.com',
    ToAddress1: '9 Palm Dr',
    ToAddress2: '',
    ToCity: 'Beverly Hills',
    ToState: 'CA',
    ToPostalCode: '90210',
    ToCountry: 'US',
  };
}

export function packageSample(trackingNumber: string, manifestDate = '2026-11-23T08:00:00Z') {
  return {
    package: {
      TrackingNumber: trackingNumber,
      FinalMileCarrier: 'Carrier',
      ManifestDate: manifestDate,
      ServiceName: 'AirSkip',
      FromName: 'Dock 4',
      FromCompany: 'Maple Goods',
      FromPhone: '',
      FromEmail: '',
      FromAddress1: '100 King St W',
      FromAddress2: '',
      FromCity: 'Toronto',
      FromState: 'ON',
      FromPostalCode: 'M5X 1A9',
      FromCountry: 'CA',
      ToName: 'Jane Doe',
      ToAddress1: '9 Palm Dr',
      ToCity: 'Beverly Hills',
      ToState: 'CA',
      ToPostalCode: '90210',
      ToCountry: 'US',
      ShipmentDescription: 'Books',
      PackageSizeLength: 10,
      PackageSizeWidth: '8',
      PackageSizeHeight: 4,
      PackageWeight: 1.2,
      WeightUnit: 'kg',
      AWB: '',
      Reference1: 'R1',
    },
  };
}

/** One customs line whole for every regime. */
export const CUSTOMS_ITEM = { Description: 'Cotton T-shirt', Quantity: 2, Value: '12.50', HSCode: '610910', OriginCountry: 'CN' };

/** A house to a consignee in Berlin with whole customs data: ready for EU ICS2 on a container that is. */
export function berlinHouse(trackingNumber: string) {
  return {
    ...containerDetail(trackingNumber),
    ToName: 'Erika Mustermann',
    ToPhone: '+49 30 1234567',
    ToEmail: 'erika@example.de',
    ToAddress1: 'Unter den Linden 1',
    ToCity: 'Berlin',
    ToState: '',
    ToPostalCode: '10117',
    ToCountry: 'DE',
    Customs: { Currency: 'USD', Items: [CUSTOMS_ITEM] },
  };
}

/**
 * A container on LH401 JFK → FRA of Berlin houses, `house(tn, i)` changing any of them: the air cargo header is whole,
 * so what a test takes out of a house is what its readiness reports.
 */
export function euContainerSample(
  containerId: string,
  trackingNumbers: string[],
  house: (trackingNumber: string, index: number) => Record<string, unknown> = () => ({}),
) {
  return {
    ...containerSample(containerId),
    FlightNumber: 'LH401',
    FlightDate: '2026-11-23',
    OriginAirport: 'JFK',
    DestinationAirport: 'FRA',
    ContainerDetails: trackingNumbers.map((tn, i) => ({ ...berlinHouse(tn), ...house(tn, i) })),
  };
}
