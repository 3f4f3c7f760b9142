import type { z } from 'zod';
import { jsonSchemaOf, type Json } from './parts';
import {
  ZListEventsResponse,
  ZListManifestsResponse,
  ZListPackagesResponse,
  ZManifestResponse,
  ZPackageResponse,
  ZScanBatchResponse,
} from '@/lib/schemas/lifecycle';
import { ZWebhookEvent, ZWebhookEventList } from '@/lib/schemas/events';
import { ZRequestLogEntry, ZRequestLogList } from '@/lib/schemas/request-log';
import { ZCustomsReadinessResponse } from '@/lib/schemas/customs-api';
import { ZInvoice, ZInvoiceList } from '@/lib/schemas/invoices';

/**
 * The reads' answers, each a component of its own (generated one by one: none refers to another), named as the
 * reference has always named them.
 */
export const LISTED_RESPONSES: Readonly<Record<string, z.ZodType>> = {
  PackageRead: ZPackageResponse,
  Manifest: ZManifestResponse,
  PackageList: ZListPackagesResponse,
  ManifestList: ZListManifestsResponse,
  EventList: ZListEventsResponse,
  ScanBatchResult: ZScanBatchResponse,
  WebhookEvent: ZWebhookEvent,
  WebhookEventList: ZWebhookEventList,
  RequestLogEntry: ZRequestLogEntry,
  RequestLogList: ZRequestLogList,
  CustomsReadiness: ZCustomsReadinessResponse,
  Invoice: ZInvoice,
  InvoiceList: ZInvoiceList,
};

export function listedSchemas(): Record<string, Json> {
  return Object.fromEntries(Object.entries(LISTED_RESPONSES).map(([name, schema]) => [name, jsonSchemaOf(schema, 'output')]));
}
