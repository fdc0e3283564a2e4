/**
 * A throwaway npm registry on 127.0.0.1 serving the packages installed in a project's
 * node_modules, so that a test can `npm install` a packed tarball and its dependencies with
 * no network and whatever npm's cache holds (`npm install --offline` needs the registry's
 * package documents in the cache, which `npm ci` never fetches).
 *
 * Served: every package package-lock.json lists as installed and not dev-only, each version
 * found in the tree (nested copies included). A package's document is its installed
 * package.json with `dist` pointing back here; its tarball is its installed directory (without
 * its own node_modules) as an uncompressed tar under `package/`, made by GNU tar on first
 * request (npm reads plain tar as well as gzip).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

interface LockEntry {
  name?: string;
  version?: string;
  dev?: boolean;
  link?: boolean;
}

interface Tarball {
  bytes: Buffer;
  integrity: string;
}

export interface LocalRegistry {
  /** The registry URL, for `npm --registry`. */
  url: string;
  /** Package documents asked for that the tree does not hold (a test shows them when npm fails). */
  missing: string[];
  close(): Promise<void>;
}

/** name -> version -> installed directory, from `root`'s package-lock.json. */
function installedPackages(root: string): Map<string, Map<string, string>> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const out = new Map<string, Map<string, string>>();
  for (const [path, e] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/') || e.dev === true || e.link === true || e.version === undefined) continue;
    const dir = join(root, path);
    if (!existsSync(join(dir, 'package.json'))) continue; // an optional dependency for another platform
    const name = e.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!out.has(name)) out.set(name, new Map());
    out.get(name)!.set(e.version, dir);
  }
  return out;
}

function tarOf(dir: string): Promise<Tarball> {
  const args = ['-c', '-f', '-', '-C', dir, '--exclude=./node_modules', '--owner=0', '--group=0', '--numeric-owner', '--transform=s,^\\.,package,', '.'];
  return new Promise((resolve, reject) => {
    execFile('tar', args, { encoding: 'buffer', maxBuffer: 1 << 30 }, (err, stdout) => {
      if (err) reject(new Error(`tar of ${dir} failed: ${err.message}`));
      else resolve({ bytes: stdout, integrity: `sha512-${createHash('sha512').update(stdout).digest('base64')}` });
    });
  });
}

function send(res: ServerResponse, status: number, type: string, body: Buffer | string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Starts serving `root`'s installed dependencies; close() stops it. */
export async function startLocalRegistry(root: string): Promise<LocalRegistry> {
  const packages = installedPackages(root);
  const tarballs = new Map<string, Promise<Tarball>>();
  const tarball = (name: string, version: string): Promise<Tarball> => {
    const key = `${name}@${version}`;
    let t = tarballs.get(key);
    if (t === undefined) tarballs.set(key, (t = tarOf(packages.get(name)!.get(version)!)));
    return t;
  };
  const missing: string[] = [];
  let url = '';

  async function packument(name: string): Promise<object> {
    const versions: Record<string, object> = {};
    for (const [version, dir] of packages.get(name)!) {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      const { integrity } = await tarball(name, version);
      versions[version] = { ...manifest, name, version, dist: { tarball: `${url}-/tarball/${encodeURIComponent(name)}/${version}.tar`, integrity } };
    }
    const latest = [...packages.get(name)!.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).pop()!;
    return { name, 'dist-tags': { latest }, versions };
  }

  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const tar = /^\/-\/tarball\/(.+)\/([^/]+)\.tar$/.exec(path);
    const answer = async (): Promise<void> => {
      if (tar !== null && packages.get(tar[1]!)?.has(tar[2]!)) {
        send(res, 200, 'application/octet-stream', (await tarball(tar[1]!, tar[2]!)).bytes);
      } else if (tar === null && packages.has(path.slice(1))) {
        send(res, 200, 'application/json', JSON.stringify(await packument(path.slice(1))));
      } else {
        missing.push(path);
        send(res, 404, 'application/json', JSON.stringify({ error: 'not found' }));
      }
    };
    answer().catch((e: Error) => send(res, 500, 'text/plain', e.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, missing, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
