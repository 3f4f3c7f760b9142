// `node --import ./scripts/hooks/server-only.mjs`: lets plain Node load lib/ modules that begin with
// `import 'server-only'`. That package throws unless it is resolved under Next's `react-server`
// condition, and a process that also runs Next must not set that condition globally (React and
// react-dom would resolve to their server-component builds and Next's renderer would break).
// Instead this maps the one specifier `server-only` to an empty module and leaves everything else
// alone. Inside Next's own bundles the package is resolved at build time, so this changes nothing there.
import { register } from 'node:module';

register('./server-only-resolve.mjs', import.meta.url);
