// The cluster's failure tests (docs/deploy.md, "The cluster on one machine"), as root on Linux:
//
//   npm run test:cluster              short form: one failover under 3,000 packages (CI-sized, a few minutes)
//   npm run test:cluster -- --long    every case: failover, switchover, an app host killed, the database
//                                     network lost for 20 s, portal reads on a replica, the webhook guarantees
//                                     across them, and package acceptance's p99 with synchronous replication
//                                     against without
//   --packages N --rate R             the failover's load (3,000 at 60/s)    --keep   leave the cluster up
//   --only a,b                        those cases alone (failover, switchover, app-host-killed, db-network-lost,
//                                     replica-reads, sync-cost), on a cluster left up by --keep or a fresh one
//
// Brings the cluster up if it is not (and down again after), then runs inside the ops host's namespace: all
// its traffic goes to the cluster's own hosts. Figures go to stdout and .data/cluster/results-<time>.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  APPS,
  DBS,
  HOSTS,
  METRICS_PORT,
  ROOT,
  STATE,
  hostDir,
  inHost,
  namespaces,
  pidsIn,
  run,
} from '../../scripts/cluster/topology.mjs';
import { appEnv, appReady, createToken, startAppHost } from '../../scripts/cluster/cluster.mjs';
import {
  Receiver,
  balancerStats,
  commitLatencies,
  portalCall,
  portalUser,
  replicaCommits,
  call,
  closedLoop,
  leader,
  link,
  members,
  now,
  patronictl,
  percentiles,
  postmasterPid,
  primaryQuery,
  sendRetrying,
  sleep,
  submitPackages,
  watchReadiness,
  REQUEST_TIMEOUT_MS,
} from './support.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const LONG = flag('long');
const PACKAGES = option('packages', 3_000);
const RATE = option('rate', 60);
const CLUSTER = path.join(ROOT, 'scripts/cluster/cluster.mjs');

if (!process.env.CLUSTER_TEST_INSIDE) {
  const started = Date.now();
  let broughtUp = false;
  if (namespaces().length === 0) {
    const up = spawnSync(process.execPath, [CLUSTER, 'up'], { stdio: 'inherit' });
    if (up.status !== 0) process.exit(up.status ?? 1);
    broughtUp = true;
  }
  const inside = spawnSync('ip', ['netns', 'exec', 'cc-ops', process.execPath, fileURLToPath(import.meta.url), ...argv], {
    stdio: 'inherit',
    env: { ...process.env, CLUSTER_TEST_INSIDE: '1' },
  });
  if (broughtUp && !flag('keep'))
    // A failed run keeps every host's log (and data) for reading; a passed one leaves nothing behind.
    spawnSync(process.execPath, [CLUSTER, 'down', ...(inside.status === 0 ? [] : ['--keep-data'])], { stdio: 'inherit' });
  console.log(`cluster test: ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
  process.exit(inside.status ?? 1);
}

// --- Inside the ops host ------------------------------------------------------------------------------

const checks = [];
const figures = {};
const t0 = now();
const stamp = () => `${((now() - t0) / 1000).toFixed(1).padStart(6)} s`;
const say = (line) => console.log(`${stamp()}  ${line}`);
function check(name, ok, detail) {
  checks.push({ name, ok: Boolean(ok), detail });
  say(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}
const ms = (value) => `${Math.round(value)} ms`;
const s1 = (value) => `${(value / 1000).toFixed(1)} s`;

const day = new Date().toISOString().slice(0, 10);
const receiver = await new Receiver().start();
const token = createToken(`Cluster test ${new Date().toISOString()}`);
let hook;
for (let i = 0; i < 30 && hook?.status !== 201; i++) {
  if (i > 0) await sleep(1_000);
  hook = await call(token, 'POST', '/version-test/api/1.1/webhooks', {
    url: receiver.url(),
    events: ['package.sorting', 'package.received', 'package.in_transit', 'package.out_for_delivery', 'package.delivered'],
  });
}
if (hook.status !== 201) throw new Error(`could not register the webhook endpoint: ${JSON.stringify(hook)}`);
receiver.secret = hook.json.secret;

/** Every package the scenarios got 200 for, for the end's at-least-once check. */
const accepted = new Set();

/** The outcome of one load: accepted, refused, lost, duplicated, and the failure window after `since`. */
async function judgeLoad(name, records, since) {
  const ok = records.filter((r) => r.status === 200);
  for (const r of ok) accepted.add(r.tn);
  const attempts = records.flatMap((r) => r.attempts);
  const after = attempts.filter((a) => a.start >= since - 1_000);
  const failures = after.filter((a) => a.status !== 200);
  const statuses = {};
  for (const a of attempts) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const stored = await primaryQuery(
    `SELECT tracking_number, count(*)::int AS n FROM packages WHERE tracking_number = ANY($1) GROUP BY tracking_number`,
    [records.map((r) => r.tn)],
  );
  const storedCount = new Map(stored.map((row) => [row.tracking_number, row.n]));
  const lost = ok.filter((r) => !storedCount.has(r.tn));
  const duplicated = stored.filter((row) => row.n > 1);
  // The first write accepted once refusals began: a dying primary's last backends can still commit for a moment
  // after its postmaster is killed (synchronously replicated, so kept), which says nothing about the new one.
  const firstRefusal = Math.min(...failures.map((a) => a.start));
  const firstOkAfter = attempts
    .filter((a) => a.status === 200 && a.start > (failures.length ? firstRefusal : since))
    .sort((a, b) => a.end - b.end)[0];
  const result = {
    packages: records.length,
    accepted: ok.length,
    notAccepted: records.length - ok.length,
    attempts: attempts.length,
    failedAttempts: attempts.filter((a) => a.status !== 200).length,
    statuses,
    lost: lost.length,
    duplicates: duplicated.length,
    storedNotAccepted: stored.filter((row) => !ok.some((r) => r.tn === row.tracking_number)).length,
    failureWindowMs: failures.length ? Math.max(...failures.map((a) => a.end)) - Math.min(...failures.map((a) => a.start)) : 0,
    firstAcceptedAfterMs: firstOkAfter ? firstOkAfter.end - since : null,
    slowestAttemptMs: Math.max(...attempts.map((a) => a.end - a.start)),
    timeouts: attempts.filter((a) => a.error === 'timeout').length,
    answered500: attempts.filter((a) => a.status >= 500 && a.status !== 503).length,
  };
  figures[name] = { ...figures[name], ...result };
  say(`${name}: ${JSON.stringify(result)}`);
  check(`${name}: every package answered 200 is stored`, lost.length === 0, `${ok.length} accepted, ${lost.length} lost`);
  check(`${name}: none stored twice`, duplicated.length === 0, `${duplicated.length} duplicated`);
  return result;
}

async function waitForCluster(count = DBS.length) {
  const deadline = now() + 180_000;
  for (;;) {
    const m = await members();
    const healthy = m.filter((x) => ['running', 'streaming'].includes(x.state));
    if (m.some((x) => x.role === 'leader') && healthy.length >= count && m.some((x) => x.role === 'sync_standby')) return m;
    if (now() > deadline) throw new Error(`the database cluster did not settle: ${JSON.stringify(m)}`);
    await sleep(1_000);
  }
}

async function waitForApps() {
  for (const host of APPS)
    for (let i = 0; !safeReady(host); i++) {
      if (i > 240) throw new Error(`${host} never became ready`);
      await sleep(1_000);
    }
}
function safeReady(host) {
  try {
    return appReady(host);
  } catch {
    return false;
  }
}

// --- 1. The primary is killed -------------------------------------------------------------------------

async function primaryKilled() {
  const name = 'failover';
  await waitForCluster();
  const old = await leader();
  const pidsBefore = Object.fromEntries(APPS.map((h) => [h, pidsIn(h).sort().join(',')]));
  const readiness = watchReadiness(APPS);
  let killedAt = 0;
  const killAfter = Math.floor(PACKAGES / 5);
  say(`${name}: ${PACKAGES} packages at ${RATE}/s; primary ${old} killed after ${killAfter}`);
  const records = await submitPackages({
    token,
    count: PACKAGES,
    rate: RATE,
    prefix: `FO${Date.now().toString(36)}`,
    day,
    onSent: (n) => {
      if (n !== killAfter) return;
      killedAt = now();
      process.kill(postmasterPid(old), 'SIGKILL');
      say(`${name}: SIGKILL to ${old}'s postmaster`);
      setTimeout(() => {
        link(old, 'back', 'down');
        say(`${name}: ${old}'s link cut`);
      }, 500);
    },
  });
  const promoted = await leader();
  say(`${name}: load done; primary now ${promoted}`);
  const result = await judgeLoad(name, records, killedAt);
  figures[name].oldPrimary = old;
  figures[name].newPrimary = promoted;
  check(`${name}: a new primary`, promoted && promoted !== old, `${old} → ${promoted}`);
  check(`${name}: never a 500`, result.answered500 === 0, JSON.stringify(result.statuses));
  check(
    `${name}: never a hang past the request timeout`,
    result.timeouts === 0,
    `slowest attempt ${ms(result.slowestAttemptMs)}, timeout ${REQUEST_TIMEOUT_MS} ms`,
  );
  check(
    `${name}: writes refused for at most 30 s`,
    result.failureWindowMs <= 30_000,
    `window ${s1(result.failureWindowMs)}, first accepted write ${s1(result.firstAcceptedAfterMs ?? NaN)} after the kill`,
  );
  await sleep(2_000);
  await readiness.stop();
  for (const host of APPS) {
    const seen = readiness.changes[host].map((c) => c.status);
    const down = readiness.changes[host].find((c) => c.status !== 200 && c.at > killedAt);
    const back = readiness.changes[host].find((c) => c.status === 200 && down && c.at > down.at);
    figures[name][`readyz_${host}`] = { unreadyMs: down && back ? back.at - down.at : null, sequence: seen };
    check(
      `${name}: ${host} /readyz turned 503 and back to 200`,
      down && back,
      `${seen.join(' → ')}, unready ${down && back ? s1(back.at - down.at) : '?'}`,
    );
    check(`${name}: ${host} not restarted`, pidsIn(host).sort().join(',') === pidsBefore[host], '');
  }
  // The old primary comes back as a replica (Patroni rewinds it) before the next case.
  link(old, 'back', 'up');
  const rejoinStart = now();
  await waitForCluster();
  figures[name].oldPrimaryRejoinedMs = now() - rejoinStart;
  say(`${name}: ${old} rejoined as a replica in ${s1(now() - rejoinStart)}`);
}

// --- 2. A planned switchover --------------------------------------------------------------------------

async function switchover() {
  const name = 'switchover';
  const m = await waitForCluster();
  const from = m.find((x) => x.role === 'leader').name;
  const to = m.find((x) => x.role === 'sync_standby').name;
  let at = 0;
  let took = 0;
  const count = Math.round(RATE * 30);
  const records = await submitPackages({
    token,
    count,
    rate: RATE,
    prefix: `SW${Date.now().toString(36)}`,
    day,
    onSent: (n) => {
      if (n !== Math.floor(count / 3)) return;
      at = now();
      say(`${name}: patronictl switchover ${from} → ${to}`);
      setImmediate(() => {
        patronictl(from, ['switchover', '--leader', from, '--candidate', to, '--force']);
        took = now() - at;
      });
    },
  });
  const result = await judgeLoad(name, records, at);
  figures[name].patronictlMs = took;
  figures[name].from = from;
  figures[name].to = to;
  const failedShare = result.failedAttempts / result.attempts;
  check(
    `${name}: fewer than 1 % of requests fail`,
    failedShare < 0.01,
    `${result.failedAttempts} of ${result.attempts} (${(failedShare * 100).toFixed(2)} %)`,
  );
  await waitForCluster();
}

// --- 3. An app host is killed -------------------------------------------------------------------------

async function appHostKilled() {
  const name = 'app-host-killed';
  const victim = 'app1';
  await waitForApps();
  receiver.delayMs = 400; // deliveries in flight when the host dies
  let killedAt = 0;
  let claimed = [];
  let downAt = 0;
  let before;
  const count = Math.round(RATE * 25);
  const victimRow = async () => (await balancerStats()).find((row) => row.pxname === 'app' && row.svname === victim);
  const records = await submitPackages({
    token,
    count,
    rate: RATE,
    prefix: `AK${Date.now().toString(36)}`,
    day,
    onSent: (n) => {
      if (n !== Math.floor(count / 3)) return;
      void (async () => {
        // The messages the victim's delivery worker holds, found by its heartbeat connection's address.
        const rows = await primaryQuery(
          `SELECT m.id FROM webhook_messages m JOIN webhook_workers w ON w.id = m.locked_by
            JOIN pg_stat_activity a ON a.pid = w.backend_pid AND a.backend_start = w.backend_start
           WHERE m.status = 'delivering' AND a.client_addr = $1::inet`,
          [HOSTS[victim].back],
        );
        before = await victimRow();
        killedAt = now();
        for (const pid of pidsIn(victim)) process.kill(pid, 'SIGKILL');
        // Only those whose outcome the victim had not written by the kill: it finished the others itself.
        claimed = (
          await primaryQuery(`SELECT id FROM webhook_messages WHERE id = ANY($1) AND status = 'delivering'`, [
            rows.map((r) => r.id),
          ])
        ).map((row) => row.id);
        say(`${name}: every process of ${victim} killed (SIGKILL); it held ${rows.length} claims, ${claimed.length} unfinished`);
        while (!downAt && now() - killedAt < 30_000) {
          if ((await victimRow())?.status?.startsWith('DOWN')) downAt = now();
          else await sleep(50);
        }
      })();
    },
  });
  const result = await judgeLoad(name, records, killedAt);
  const after = await victimRow();
  const tried = (row) => Number(row?.econ || 0) + Number(row?.eresp || 0);
  figures[name].balancerMarkedDownMs = downAt ? downAt - killedAt : null;
  figures[name].requestsTriedOnDeadHost = tried(after) - tried(before);
  check(
    `${name}: the balancer stops sending to it within its check interval (1 s, 2 failures)`,
    downAt && downAt - killedAt <= 2_000,
    `marked down ${ms(downAt - killedAt)} after the kill; ${tried(after) - tried(before)} requests failed on it and went to the other host`,
  );
  check(
    `${name}: no request lost to the dead host`,
    result.notAccepted === 0,
    `${result.failedAttempts} failed attempts, retried`,
  );
  // Its unfinished claims, delivered by the survivor.
  const deadline = now() + 30_000;
  const firstFromSurvivor = (id) =>
    receiver.received.find((r) => r.id === id && r.verified && r.at > killedAt && r.from !== HOSTS[victim].front);
  while (now() < deadline && !claimed.every(firstFromSurvivor)) await sleep(250);
  const delays = claimed.map((id) => (firstFromSurvivor(id)?.at ?? Infinity) - killedAt);
  figures[name].unfinishedClaims = claimed.length;
  figures[name].unfinishedClaimsDeliveredMs = delays.map((d) => Math.round(d));
  check(
    `${name}: the survivor delivers the dead host's claimed messages within 5 s`,
    claimed.length > 0 && Math.max(...delays) <= 5_000,
    `${claimed.length} messages, the last ${ms(Math.max(...delays))} after the kill`,
  );
  receiver.delayMs = 0;
  startAppHost(victim);
  await waitForApps();
  say(`${name}: ${victim} started again`);
}

// --- 4. The app hosts lose the database network for 20 s ----------------------------------------------

async function databaseNetworkLost() {
  const name = 'db-network-lost';
  await waitForApps();
  // Lines other than the access log's one per request (info; production logs at warn, without them).
  const logLines = () =>
    Object.fromEntries(
      APPS.map((h) => [
        h,
        readFileSync(path.join(hostDir(h), 'app.log'), 'utf8')
          .split('\n')
          .filter((l) => l && !l.includes('"msg":"request"')).length,
      ]),
    );
  const pidsBefore = Object.fromEntries(APPS.map((h) => [h, pidsIn(h).sort().join(',')]));
  const readiness = watchReadiness(APPS);
  const linesBefore = logLines();
  let cutAt = 0;
  let restoredAt = 0;
  const count = Math.round(20 * 45);
  const loading = submitPackages({ token, count, rate: 20, concurrency: 8, prefix: `NL${Date.now().toString(36)}`, day });
  await sleep(5_000);
  for (const host of APPS) link(host, 'back', 'down');
  cutAt = now();
  say(`${name}: app hosts' database links cut`);
  await sleep(20_000);
  for (const host of APPS) link(host, 'back', 'up');
  restoredAt = now();
  say(`${name}: links restored`);
  const records = await loading;
  await sleep(2_000);
  await readiness.stop();
  const result = await judgeLoad(name, records, cutAt);
  const linesAfter = logLines();
  const attempts = records.flatMap((r) => r.attempts);
  // The loss is known once the local HAProxy has marked every database host down (2 checks, up to 4 s) and lib/db.ts has
  // waited out its 5 s for a switchover: before that a request may wait up to about 7 s; after it, none should.
  const KNOWN_AFTER_MS = 10_000;
  const early = attempts.filter((a) => a.start >= cutAt && a.start < cutAt + KNOWN_AFTER_MS && a.status !== 200);
  const during = attempts.filter((a) => a.start >= cutAt + KNOWN_AFTER_MS && a.end <= restoredAt);
  const refused = during.filter((a) => a.status !== 200);
  const lat = percentiles(refused.map((a) => a.end - a.start));
  const firstOk = attempts.filter((a) => a.status === 200 && a.start >= restoredAt).sort((a, b) => a.end - b.end)[0];
  figures[name].refusedFirst10s = percentiles(early.map((a) => a.end - a.start));
  figures[name].refusedAfter10s = { ...lat, statuses: [...new Set(refused.map((a) => a.status))] };
  figures[name].firstAcceptedAfterRestoreMs = firstOk ? firstOk.end - restoredAt : null;
  figures[name].logLines = Object.fromEntries(APPS.map((h) => [h, linesAfter[h] - linesBefore[h]]));
  check(
    `${name}: fast 503s once the loss is known`,
    refused.length > 0 && refused.every((a) => a.status === 503) && lat.p99 < 1_000,
    `${refused.length} refusals after the first 10 s, p50 ${ms(lat.p50)}, p99 ${ms(lat.p99)}; in the first 10 s the slowest took ${ms(figures[name].refusedFirst10s.max)}`,
  );
  check(`${name}: never a 500`, result.answered500 === 0, JSON.stringify(result.statuses));
  for (const host of APPS) {
    check(`${name}: ${host} process alive, not restarted`, pidsIn(host).sort().join(',') === pidsBefore[host], '');
    check(
      `${name}: ${host} log lines bounded`,
      linesAfter[host] - linesBefore[host] < 100,
      `${linesAfter[host] - linesBefore[host]} lines`,
    );
    const back = readiness.changes[host].find((c) => c.status === 200 && c.at > restoredAt);
    figures[name][`readyAfterRestoreMs_${host}`] = back ? back.at - restoredAt : null;
    check(
      `${name}: ${host} ready within 5 s of the link's return`,
      back && back.at - restoredAt <= 5_000,
      back ? ms(back.at - restoredAt) : 'never',
    );
  }
  check(
    `${name}: full service within 5 s of the link's return`,
    firstOk && firstOk.end - restoredAt <= 5_000,
    firstOk ? `first 200 ${ms(firstOk.end - restoredAt)} after` : 'none',
  );
}

// --- 5. The webhook queue's guarantees across all of it -----------------------------------------------

/** Packages walked to delivered (four events each, in order per package) while the other cases break things. */
const walked = [];
async function walkLifecycles(tns) {
  for (const tn of tns) {
    const result = await sendRetrying(token, 'POST', `/version-test/api/1.1/packages/${tn}/simulate`, { status: 'delivered' });
    if (result.status === 200) walked.push(tn);
  }
}

async function webhookGuarantees() {
  const name = 'webhooks';
  const deadline = now() + 180_000;
  let missing = [...accepted];
  while (now() < deadline) {
    const delivered = new Set(
      receiver.received.filter((r) => r.verified && r.event === 'package.sorting').flatMap((r) => r.payload.tracking_numbers),
    );
    missing = [...accepted].filter((tn) => !delivered.has(tn));
    if (missing.length === 0) break;
    await sleep(1_000);
  }
  const unverified = receiver.received.filter((r) => !r.verified).length;
  const byTn = new Map();
  for (const r of receiver.received.filter((x) => x.verified && x.event === 'package.sorting'))
    for (const tn of r.payload.tracking_numbers) byTn.set(tn, [...(byTn.get(tn) ?? []), r.id]);
  const twoIds = [...byTn.values()].filter((ids) => new Set(ids).size > 1).length;
  const repeats = [...byTn.values()].reduce((n, ids) => n + ids.length - 1, 0);
  figures[name] = { accepted: accepted.size, delivered: accepted.size - missing.length, repeatedDeliveries: repeats, unverified };
  check(
    `${name}: every accepted package's package.sorting arrived, signature verified`,
    missing.length === 0 && unverified === 0,
    `${accepted.size - missing.length} of ${accepted.size}, ${unverified} unverified`,
  );
  check(
    `${name}: a package notified twice only under the same webhook-id`,
    twoIds === 0,
    `${repeats} repeated deliveries, ${twoIds} under a second id`,
  );
  if (walked.length) {
    const order = ['package.received', 'package.in_transit', 'package.out_for_delivery', 'package.delivered'];
    const waitUntil = now() + 120_000;
    const firstArrivals = (tn) => {
      const seen = [];
      for (const r of receiver.received)
        if (r.verified && r.payload?.tracking_number === tn && !seen.includes(r.event)) seen.push(r.event);
      return seen;
    };
    while (now() < waitUntil && !walked.every((tn) => firstArrivals(tn).length === order.length)) await sleep(1_000);
    const outOfOrder = walked.filter((tn) => firstArrivals(tn).join() !== order.join());
    figures[name].walkedPackages = walked.length;
    check(
      `${name}: each walked package's events arrived, in order`,
      outOfOrder.length === 0,
      `${walked.length} packages, ${outOfOrder.length} out of order or missing`,
    );
  }
}

// --- Portal reads on a replica, read-your-writes ------------------------------------------------------

async function replicaReads() {
  const name = 'replica-reads';
  await waitForCluster();
  const user = await portalUser();
  // Each reading of the replicas' statistics is itself a transaction on each replica, and a couple more come and go:
  // 10 dashboards are 20 reads, so fewer than 5 means they went elsewhere.
  const replicas = (await members()).filter((m) => m.role !== 'leader');
  const own = replicas.length;
  const fromPortal = existsSync(path.join(STATE, 'release/.next/server')) && builtWithReplicaPool();
  let measured;
  if (fromPortal) {
    const dashboards = async (n) => {
      const before = await replicaCommits();
      const answers = [];
      for (let i = 0; i < n; i++) answers.push(await portalCall(user, 'GET', '/portal-api/dashboard'));
      await sleep(11_500); // a backend's statistics reach pg_stat_database once idle 10 s (or gone: the pool's idle timeout)
      return { onReplicas: (await replicaCommits()) - before, answers };
    };
    const cold = await dashboards(10);
    const wrote = await portalCall(user, 'POST', '/portal-api/tokens', { name: 'read-your-writes' });
    const hot = await dashboards(10);
    await sleep(5_000);
    const later = await dashboards(10);
    const answers = [...cold.answers, ...hot.answers, ...later.answers];
    const servers = new Set(answers.map((a) => a.server));
    check(`${name}: the portal answers`, wrote.status === 201 && answers.every((a) => a.status === 200), `write ${wrote.status}`);
    check(`${name}: a browser stays on one app host`, servers.size === 1, [...servers].join(', '));
    measured = { cold: cold.onReplicas, afterWrite: hot.onReplicas, afterWindow: later.onReplicas };
  } else {
    // The cluster's .next build predates the replica pool (the portal's routes run from it): the same reads, from the sources.
    say(`${name}: the .next build has no replica pool yet (npm run build); measuring getDashboard() from the sources on app1`);
    const out = inHost(
      'app1',
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        './scripts/hooks/server-only.mjs',
        'e2e/cluster/dashboard-reads.mjs',
        user.accountId,
        ...replicas.map((m) => `${m.host}:${m.port}`),
      ],
      { env: appEnv('app1'), cwd: ROOT },
    );
    measured = JSON.parse(out.trim().split('\n').at(-1));
  }
  figures[name] = { via: fromPortal ? 'portal' : 'sources', own, ...measured };
  say(`${name}: ${JSON.stringify(figures[name])}`);
  check(
    `${name}: the dashboard reads from a replica`,
    measured.cold >= own + 10,
    `${measured.cold - own} transactions on the replicas for 10 dashboards`,
  );
  check(
    `${name}: after its own write the account reads from the primary`,
    measured.afterWrite < own + 5,
    `${measured.afterWrite - own} on the replicas for 10 dashboards within 5 s of the write`,
  );
  check(
    `${name}: and from a replica again after the window`,
    measured.afterWindow >= own + 10,
    `${measured.afterWindow - own} on the replicas`,
  );
}

/** Whether the release's Next build has lib/db.ts's replica pool (its metric's name is in the bundle). */
function builtWithReplicaPool() {
  try {
    run('grep', ['-rlq', 'db_replica_lag_seconds', path.join(STATE, 'release/.next/server')]);
    return true;
  } catch {
    return false;
  }
}

// --- Synchronous replication's cost -------------------------------------------------------------------

async function syncCost() {
  const name = 'sync-cost';
  await waitForCluster();
  const rounds = ['on', 'off', 'off', 'on', 'on', 'off'];
  const results = { on: [], off: [] };
  // The replica lag each app host reports in /metrics, sampled while the rounds load the primary.
  const lag = Object.fromEntries(APPS.map((h) => [h, []]));
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const host of APPS) {
        const text = await fetch(`http://${HOSTS[host].front}:${METRICS_PORT}/metrics`, { signal: AbortSignal.timeout(3_000) })
          .then((r) => r.text())
          .catch(() => '');
        const match = /^db_replica_lag_seconds (\S+)$/m.exec(text);
        if (match) lag[host].push(Number(match[1]));
      }
      await sleep(500);
    }
  })();
  /** Patroni's synchronous_mode on or off, once the primary has applied it. */
  const synchronous = async (mode) => {
    patronictl(await leader(), ['edit-config', '--force', '-s', `synchronous_mode=${mode === 'on'}`]);
    for (let w = 0; ; w++) {
      const [{ synchronous_standby_names: names }] = await primaryQuery('SHOW synchronous_standby_names');
      if ((mode === 'on') === (names !== '')) return;
      if (w > 60) throw new Error(`synchronous_standby_names stayed '${names}' with synchronous_mode ${mode}`);
      await sleep(500);
    }
  };
  for (const [i, mode] of rounds.entries()) {
    await synchronous(mode);
    const round = await closedLoop({ token, seconds: 15, concurrency: 8, prefix: `SC${i}${Date.now().toString(36)}`, day });
    results[mode].push(round);
    say(
      `${name}: synchronous ${mode}: p50 ${ms(round.p50)}, p99 ${ms(round.p99)}, ${round.perSecond.toFixed(0)}/s, ${round.failed} failed`,
    );
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const summary = (mode) => ({
    p50: median(results[mode].map((r) => r.p50)),
    p99: median(results[mode].map((r) => r.p99)),
    perSecond: median(results[mode].map((r) => r.perSecond)),
  });
  sampling = false;
  await sampler;
  await synchronous('on');
  // The same cost per commit, alternated transaction by transaction, so that the machine's drift cancels.
  const commits = await commitLatencies(1_000);
  figures[name + '-commit'] = commits;
  say(
    `${name}: a commit waiting for the synchronous standby: p50 ${commits.on.p50.toFixed(1)} ms, p99 ${commits.on.p99.toFixed(1)} ms; not waiting: p50 ${commits.local.p50.toFixed(1)} ms, p99 ${commits.local.p99.toFixed(1)} ms`,
  );
  const lagSamples = Object.values(lag).flat();
  figures[name] = {
    on: summary('on'),
    off: summary('off'),
    rounds: results,
    replicaLag: { samples: lagSamples.length, ...percentiles(lagSamples.map((x) => x * 1000)) },
  };
  check(
    `${name}: the replica lag is in /metrics`,
    lagSamples.length > 0,
    `${lagSamples.length} samples, p99 ${ms(figures[name].replicaLag.p99)}, max ${ms(figures[name].replicaLag.max)}`,
  );
  say(
    `${name}: with synchronous replication p99 ${ms(figures[name].on.p99)} (${figures[name].on.perSecond.toFixed(0)}/s), without ${ms(figures[name].off.p99)} (${figures[name].off.perSecond.toFixed(0)}/s)`,
  );
}

// --- Run ----------------------------------------------------------------------------------------------

const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',') : undefined;

try {
  if (ONLY) {
    // One case or a few, while working on them: --only failover,switchover,app-host-killed,db-network-lost,replica-reads,sync-cost
    const cases = {
      failover: primaryKilled,
      switchover,
      'app-host-killed': appHostKilled,
      'db-network-lost': databaseNetworkLost,
      'replica-reads': replicaReads,
      'sync-cost': syncCost,
    };
    for (const name of ONLY) await cases[name]();
  } else {
    await primaryKilled();
    if (LONG) {
      // Lifecycles walked during the switchover: their events cross a primary change too.
      const some = [...accepted].slice(0, 100);
      await Promise.all([switchover(), walkLifecycles(some)]);
      await appHostKilled();
      await databaseNetworkLost();
      await replicaReads();
    }
    await webhookGuarantees();
    if (LONG) await syncCost();
  }
} catch (error) {
  check('the run finished', false, error.stack);
} finally {
  receiver.stop();
}

const file = path.join(ROOT, '.data/cluster', `results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify({ form: LONG ? 'long' : 'short', packages: PACKAGES, rate: RATE, figures, checks }, null, 2));
const failed = checks.filter((c) => !c.ok);
say(`figures: ${file}`);
for (const c of failed) say(`failed: ${c.name}: ${c.detail}`);
console.log(`${checks.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
