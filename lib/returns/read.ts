import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { getPackage } from '@/lib/shipments/read';
import { returnLinks } from './returns';

/** A package's read with its return links both ways (`returns`: made for it; `return_of`: the package it returns). */
export async function readPackageWithReturns(options: { accountId: string; environment: Environment; trackingNumber: string }) {
  const pkg = await getPackage(options);
  const links = await returnLinks({ ...options, carrierBarcode: pkg.carrier_barcode });
  return { ...pkg, returns: links.returns, return_of: links.return_of };
}
