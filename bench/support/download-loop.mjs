// Downloads documents again and again until SIGTERM, then prints {"done": n, "failures": [statuses]} on stdout.
// A process of its own (bench/documents-load.ts): reading 5 MB answers in the bench's process held up autocannon's
// event loop, and the rate latencies it measured with it.
//   DOWNLOADS='[{"url": "…", "authorization": "Token …"}, …]' node bench/support/download-loop.mjs   (one client each)
const clients = JSON.parse(process.env.DOWNLOADS ?? '[]');
let stopping = false;
let done = 0;
const failures = [];
process.on('SIGTERM', () => (stopping = true));

await Promise.all(
  clients.map(async ({ url, authorization }) => {
    while (!stopping) {
      try {
        const response = await fetch(url, { headers: { authorization } });
        await response.arrayBuffer();
        if (response.status === 200) done += 1;
        else failures.push(response.status);
      } catch (error) {
        failures.push(String(error));
      }
    }
  }),
);
process.stdout.write(`${JSON.stringify({ done, failures })}\n`);
