import { randomUUID } from 'node:crypto';
import { env } from '@/lib/env';
import { publishedWorkerStatus, readinessAnswer, readinessProbe, type ReadinessProbe } from '@/lib/probes/readiness';

// GET /readyz under `next start`: database, migrations, this process's webhook worker (lib/probes/readiness.ts);
// the production server answers it itself (lib/probes/server-probes.ts).
export const dynamic = 'force-dynamic';

const KEY = Symbol.for('carrier.readinessProbe');
type Global = typeof globalThis & { [KEY]?: ReadinessProbe };

export async function GET() {
  const config = env();
  const global = globalThis as Global;
  global[KEY] ??= readinessProbe(config.DATABASE_URL);
  const result = await global[KEY].check(() => (config.WEBHOOK_WORKER === 'off' ? 'off' : publishedWorkerStatus()));
  const answer = readinessAnswer(result, `req_${randomUUID().replaceAll('-', '')}`);
  return Response.json(answer.body, { status: answer.status, headers: answer.headers });
}

// Any other method: the probes' 405 envelope (lib/probes/probe-method.ts), as the production server answers.
export {
  probeMethodNotAllowed as POST,
  probeMethodNotAllowed as PUT,
  probeMethodNotAllowed as PATCH,
  probeMethodNotAllowed as DELETE,
} from '@/lib/probes/probe-method';
