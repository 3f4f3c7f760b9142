// The resolve hook registered by ./server-only.mjs (it runs on Node's module-hooks thread).
const EMPTY_MODULE = 'data:text/javascript,export{}';

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'server-only') return { url: EMPTY_MODULE, format: 'module', shortCircuit: true };
  return nextResolve(specifier, context);
}
