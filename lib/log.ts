import pino from 'pino';
import { processSettings } from './env';

let lastMs = 0;
let lastTime = '';

// Written once per millisecond: most lines share it, and a Date and its ISO string per line were costly allocations.
export function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

export const log = pino({
  level: processSettings().LOG_LEVEL,
  base: { service: 'carrier' },
  timestamp: isoTime,
  redact: { paths: ['req.headers.authorization', 'authorization', 'token', 'password'], censor: '[redacted]' },
});
