import 'server-only';
import { PACKAGE_SORTING_EVENT, type TPackageSortingPayload } from '@/lib/schemas/webhooks';
import type { ClaimedMessage } from './claim-messages';
import { planRetry, parseRetryAfter } from './plan-retry';
import { failUnsent, recordAttempt, type AttemptOutcome, type SuccessfulAttempt } from './record-attempt';
import { sendWebhook, type SendResult } from './send-webhook';
import { openSecret, SecretUnavailableError } from './secret-box';
import { webhookSecretsKeyring } from './secrets-keyring';
import { signMessage } from './sign-message';
import { checkDestination, DestinationRefusedError, type Resolver } from './ssrf-guard';

export interface DeliverySettings {
  workerId: string;
  timeoutMs: number;
  schedule: readonly number[];
  allowPrivate: boolean;
  disableAfterMs: number;
  resolver?: Resolver;
  /** Writes a success (the worker's batching writer, record-attempt.ts successWriter()); else one statement each. */
  recordSuccess?: (attempt: SuccessfulAttempt) => Promise<void>;
  /** Called once the receiver has answered (or the attempt ended without a request), before the outcome is written. */
  onAnswered?: () => void;
}

export type DeliveryResult = 'succeeded' | 'retry' | 'failed' | 'skipped';

/** package.sorting's body is exactly {manifest_id, package_count, tracking_numbers}, in that order. */
export function messageBody(eventType: string, payload: unknown): string {
  if (eventType === PACKAGE_SORTING_EVENT) {
    const p = payload as TPackageSortingPayload;
    const body: TPackageSortingPayload = {
      manifest_id: p.manifest_id,
      package_count: p.package_count,
      tracking_numbers: p.tracking_numbers,
    };
    return JSON.stringify(body);
  }
  // The event's name inside the signed body, so receivers tell events apart by what the signature covers.
  return JSON.stringify({ type: eventType, ...(payload as object) });
}

/** The secrets to sign with, decrypted here and nowhere else: the current one, and the one a rotation replaced while its overlap lasts. */
function signingSecrets(message: ClaimedMessage): string[] {
  const keyring = webhookSecretsKeyring();
  const secrets = [openSecret(keyring, message.endpointId, message.secret)];
  if (message.previousSecret) secrets.push(openSecret(keyring, message.endpointId, message.previousSecret));
  return secrets;
}

/** One attempt: check the destination again (DNS now), sign, POST, record. Only 2xx succeeds; 410 disables. */
export async function deliverMessage(
  message: ClaimedMessage,
  settings: DeliverySettings,
  signal?: AbortSignal,
): Promise<DeliveryResult> {
  if (!message.enabled) {
    await failUnsent({ messageId: message.id, workerId: settings.workerId });
    return 'skipped';
  }
  const attemptedAt = new Date();
  const body = messageBody(message.eventType, message.payload);
  let result: SendResult;
  try {
    const destination = await checkDestination(message.url, { allowPrivate: settings.allowPrivate, resolver: settings.resolver });
    const headers: Record<string, string> = {
      ...signMessage({ secrets: signingSecrets(message), messageId: message.id, timestamp: attemptedAt, body }),
      'x-carrier-event': message.eventType,
    };
    if (message.isTest) headers['x-carrier-test-event'] = 'true';
    result = await sendWebhook({ destination, headers, body, timeoutMs: settings.timeoutMs, signal });
  } catch (error) {
    if (!(error instanceof DestinationRefusedError || error instanceof SecretUnavailableError)) throw error;
    result = {
      statusCode: null,
      durationMs: 0,
      responseBody: null,
      error:
        error instanceof DestinationRefusedError ? `refused before connecting: ${error.message}` : `not sent: ${error.message}`,
      retryAfter: null,
      requestHeaders: null,
    };
  }

  settings.onAnswered?.();
  const status = result.statusCode;
  const success = status !== null && status >= 200 && status < 300;
  const gone = status === 410;
  const attemptNumber = message.attemptCount + 1;
  if (success && settings.recordSuccess) {
    await settings.recordSuccess({
      messageId: message.id,
      endpointId: message.endpointId,
      workerId: settings.workerId,
      attemptNumber,
      attemptedAt,
      statusCode: status,
      durationMs: result.durationMs,
      responseBody: result.responseBody,
      requestHeaders: result.requestHeaders,
    });
    return 'succeeded';
  }
  let outcome: AttemptOutcome;
  if (success) {
    outcome = { kind: 'succeeded' };
  } else {
    const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(result.retryAfter) : null;
    const plan = gone
      ? { delayMs: null }
      : planRetry({ attemptsMade: attemptNumber, schedule: settings.schedule, retryAfterMs, redelivery: message.redelivery });
    outcome = plan.delayMs === null ? { kind: 'failed' } : { kind: 'retry', delayMs: plan.delayMs };
  }
  await recordAttempt({
    messageId: message.id,
    endpointId: message.endpointId,
    workerId: settings.workerId,
    attemptNumber,
    attemptedAt,
    statusCode: status,
    durationMs: result.durationMs,
    responseBody: result.responseBody,
    requestHeaders: result.requestHeaders,
    error:
      result.error ??
      (success
        ? null
        : `HTTP ${status}${status !== null && status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`),
    success,
    outcome,
    gone,
    disableAfterMs: settings.disableAfterMs,
  });
  return outcome.kind;
}
