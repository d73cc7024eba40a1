/** What `npm ci` installs: no package declares a Node engine the project's `engines` does not cover. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// semver comes with fastify (its own dependency); the project does not depend on it directly.
const semver = createRequire(import.meta.url)('semver') as {
  subset(a: string, b: string): boolean;
  satisfies(v: string, r: string): boolean;
};
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; os?: string[] }>;
};

describe('installs', () => {
  it('runs on the Node version engines states', () => {
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('locks no dependency whose engines exclude a Node version the project supports', () => {
    const unsupported: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!path || !node) continue;
      if (!semver.subset(pkg.engines.node, node)) unsupported.push(`${path}@${entry.version}: node ${node}`);
    }
    expect(unsupported).toEqual([]);
  });
});
