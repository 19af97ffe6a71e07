/**
 * Loads an optional peer of the SDK on first use (`docx`, `mammoth`, `playwright-core`): only an
 * app that uses the converter needing it installs it, so every other app's install stays small.
 * `load` is the literal `import()`, so bundlers still see the name. An app that calls the
 * converter without the package gets an Error saying which package to add, not a resolution trace.
 */
export async function loadPeer<T>(name: string, purpose: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(`'${name}'`)) {
      throw new Error(`${purpose} needs the package ${name}: add it to the app's dependencies (npm install ${name})`, { cause: error });
    }
    throw error;
  }
}
