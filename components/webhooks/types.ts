// The portal's webhook JSON (snake_case, as the public API returns it).
export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDelivery {
  id: string;
  message_id: string;
  event_id: string;
  event_type: string;
  test: boolean;
  attempt: number;
  attempted_at: string;
  success: boolean;
  status_code: number | null;
  duration_ms: number;
  request: { headers: Record<string, string>; body: string; body_bytes: number } | null;
  response_body: string | null;
  error: string | null;
  message_status: string;
  next_attempt_at: string | null;
}

export interface WebhookDeliveryPage {
  data: WebhookDelivery[];
  has_more: boolean;
  next_cursor: string | null;
}
