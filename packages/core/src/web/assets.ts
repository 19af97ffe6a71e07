import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A fingerprinted asset: the file on disk and the name it is served under. */
export interface Asset {
  file: string;
  /** `site.3f9a1c2b7e.css`: the content hash is in the name, so it may be cached for a year. */
  servedAs: string;
}

/**
 * Fingerprints every file of the assets folder once, at start-up: `site.css` is served as
 * `/assets/site.{hash}.css` with a year-long immutable cache; a changed file gets a new name,
 * so no browser keeps a stale copy. Templates ask `assetUrl('site.css')` for the current name.
 */
export class AssetCatalog {
  private readonly byName = new Map<string, Asset>();
  private readonly byServedName = new Map<string, Asset>();

  /** `extra`: files kept elsewhere, by the name templates ask for (the kit's tokens.css, the shell's script). */
  constructor(
    readonly dir: string,
    extra: Record<string, string> = {},
  ) {
    const files = [...readdirSync(dir).map((name) => [name, path.join(dir, name)] as const), ...Object.entries(extra)];
    for (const [name, file] of files) {
      const hash = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 10);
      const extension = path.extname(name);
      const asset = { file, servedAs: `${path.basename(name, extension)}.${hash}${extension}` };
      this.byName.set(name, asset);
      this.byServedName.set(asset.servedAs, asset);
    }
  }

  /** The URL of an asset by its source name; throws for an unknown one (a template typo fails loudly). */
  url(name: string): string {
    const asset = this.byName.get(name);
    if (!asset) throw new Error(`No asset ${name} in ${this.dir}`);
    return `/assets/${asset.servedAs}`;
  }

  /** The asset served under a fingerprinted name, or undefined. */
  served(servedAs: string): Asset | undefined {
    return this.byServedName.get(servedAs);
  }
}

/** A year, in ms: how long a fingerprinted asset may be cached. */
export const IMMUTABLE_MAX_AGE_MS = 365 * 24 * 3600 * 1000;
