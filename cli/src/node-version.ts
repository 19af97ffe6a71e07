// Imports nothing: bin.ts runs this before anything else is loaded, on whatever Node started it.

/** The oldest Node.js the kit runs on (docs/decisions/0120-node-versions.md). */
export const MINIMUM_NODE = '22.12';

/** The one line that refuses `version` (`process.versions.node`), or null when it is supported. */
export function nodeRefusal(version: string): string | null {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [needMajor, needMinor] = MINIMUM_NODE.split('.').map(Number);
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return null;
  return `wpk needs Node.js ${MINIMUM_NODE} or newer; this is ${version}`;
}
