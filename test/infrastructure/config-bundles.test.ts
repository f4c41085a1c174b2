import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infrastructure/constructs/naming';

/**
 * Each handler bundles only the settings groups (functions/config/*.ts) its code path reaches: a group's schema is
 * built and parsed at the cold start of the handlers that read it, and of no other (docs/configuration.md).
 */
async function settingsGroupsOf(handler: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [`functions/${handler}.ts`],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    outfile: 'handler.mjs',
    // Native and model packages are not what this test is about (and come from a layer in the cloud).
    external: ['sharp', 'heic-convert', '@vladmandic/*', '@tensorflow/*'],
    logLevel: 'silent',
  });
  return Object.keys(metafile.inputs)
    .map((path) => /^functions\/config\/(.+)\.ts$/.exec(path)?.[1])
    .filter((group): group is string => !!group && group !== 'settings' && group !== 'fields')
    .sort();
}

describe('settings groups in handler bundles', () => {
  it.each([
    ['http/health', []],
    ['http/me', ['high-resolution', 'image-provider', 'runtime', 'signup-bonus', 'storage']],
    ['workflow/notify-customer', ['mail', 'runtime', 'site', 'storage']],
    ['workflow/call-provider', ['generation', 'image-provider', 'runtime', 'storage']],
    ['workflow/finish-headshot', ['likeness', 'runtime', 'storage']],
    ['workflow/enqueue-provider-call', ['generation', 'image-provider', 'runtime', 'storage']],
  ])('%s carries %j', async (handler, groups) => {
    expect(await settingsGroupsOf(handler)).toEqual(groups);
  });

  it('keeps Stripe settings to the payment handlers', async () => {
    expect(await settingsGroupsOf('webhooks/stripe')).toContain('stripe');
    expect(await settingsGroupsOf('http/list-headshots')).not.toContain('stripe');
  });
});
