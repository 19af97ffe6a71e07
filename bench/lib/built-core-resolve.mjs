// The resolve hook bench/lib/built-core.mjs registers.
const BUILT = new URL('../../packages/core/dist/bench/index.js', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === '@wpk/core') return { url: BUILT, format: 'module', shortCircuit: true };
  return next(specifier, context);
}
