import { z } from 'zod';

// Parsed once, at first use; a missing or malformed variable stops the process with a clear message.
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Sustained requests per second allowed per API token, and the burst above it. */
  API_RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(100),
  API_RATE_LIMIT_BURST: z.coerce.number().positive().default(200),
  /** Request bodies above this many bytes are refused with 413 before being read whole. */
  API_MAX_BODY_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
});

export type Env = z.infer<typeof ZEnv>;

let parsed: Env | undefined;

export function env(): Env {
  if (parsed) return parsed;
  const result = ZEnv.safeParse(process.env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    const message = `Invalid environment configuration:\n${lines.join('\n')}`;
    console.error(message);
    throw new Error(message);
  }
  parsed = result.data;
  return parsed;
}
