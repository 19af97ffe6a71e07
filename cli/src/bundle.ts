import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { CliError } from './errors.js';

/**
 * A bundle is a folder of npm tarballs (`pnpm release` writes one: release/). A project made
 * from it keeps a copy of them in BUNDLE_DIR and installs every @wpk package from there (npm
 * `overrides` to `file:` specs), so it needs no registry for them, and installs again anywhere.
 */
export const BUNDLE_DIR = 'wpk-packages';

/** What a tarball's package.json says. */
export interface PackedPackage {
  name: string;
  version: string;
}

const text = (block: Buffer, start: number, length: number) => {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
};

/** The package.json of an npm tarball (`package/package.json` in a gzipped tar), read without unpacking it. */
export function readPackageJson(file: string): PackedPackage {
  let tar: Buffer;
  try {
    tar = zlib.gunzipSync(fs.readFileSync(file));
  } catch (error) {
    throw new CliError(`${file} is not a package tarball (.tgz): ${(error as Error).message}`);
  }
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const name = [text(header, 345, 155), text(header, 0, 100)].filter(Boolean).join('/');
    const size = parseInt(text(header, 124, 12).trim() || '0', 8);
    offset += 512;
    // npm and pnpm put everything under one top folder, `package/`.
    if (/^[^/]+\/package\.json$/.test(name)) {
      const pkg = JSON.parse(tar.subarray(offset, offset + size).toString('utf8')) as Partial<PackedPackage>;
      if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string') throw new CliError(`${file}: its package.json has no name or version`);
      return { name: pkg.name, version: pkg.version };
    }
    offset += Math.ceil(size / 512) * 512;
  }
  throw new CliError(`${file} is not a package tarball: it holds no package.json`);
}

/** The tarballs of a bundle folder by package name: `@wpk/cli` -> `wpk-cli-0.1.0.tgz`. */
export function readBundle(dir: string): Map<string, { file: string; version: string }> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new CliError(`${dir}: no such bundle folder (pnpm release writes one: release/)`);
  const packages = new Map<string, { file: string; version: string }>();
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.tgz')).sort()) {
    const { name, version } = readPackageJson(path.join(dir, file));
    packages.set(name, { file, version });
  }
  if (packages.size === 0) throw new CliError(`${dir} holds no package tarballs (.tgz): make a bundle with pnpm release`);
  return packages;
}

/** The `file:` spec of a tarball kept in the project's BUNDLE_DIR, as npm writes it in package.json. */
export const bundleSpec = (file: string) => `file:${BUNDLE_DIR}/${file}`;
