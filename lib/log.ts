import pino from 'pino';

// Structured JSON logs on stdout; every request's lines carry its request id (see lib/http/pipeline.ts).
export const log = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: 'carrier' },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: { paths: ['req.headers.authorization', 'authorization', 'token', 'password'], censor: '[redacted]' },
});
