// The ES module resolve hook registered by ./production-modules-only.mjs (Node's module-hooks thread).
import { fileURLToPath } from 'node:url';
import { refuse } from './production-modules-only-rules.mjs';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.startsWith('file:')) refuse(fileURLToPath(resolved.url), specifier);
  return resolved;
}
