import next from 'next';
import { createServer } from 'node:http';
const orig = globalThis.decodeURIComponent;
globalThis.decodeURIComponent = function (s) { try { return orig(s); } catch (e) { console.log('DECODE THROW', s, new Error().stack.split('\n').slice(1, 8).join('\n')); throw e; } };
const origErr = console.error;
const app = next({ dev: false, dir: process.cwd() });
await app.prepare();
const h = app.getRequestHandler();
const server = createServer((req, res) => h(req, res)).listen(3913, async () => {
  for (const p of ['/portal-api/manifests/%ZZ']) {
    const r = await fetch('http://127.0.0.1:3913' + p);
    console.log(p, r.status, (await r.text()).slice(0, 100));
  }
  process.exit(0);
});
