import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineStylesheets, pageFileOf, SPA_SHELL } from '../../../frontend/scripts/prerender-plugin';

describe('pageFileOf (the preview server, as the CloudFront function maps paths)', () => {
  it('serves the prerendered landing and pricing pages by their path', () => {
    expect(pageFileOf('/')).toBe('index.html');
    expect(pageFileOf('/pricing')).toBe('pricing.html');
    expect(pageFileOf('/pricing/')).toBe('pricing.html');
    expect(pageFileOf('/terms')).toBe('terms.html');
    expect(pageFileOf('/privacy/')).toBe('privacy.html');
    expect(pageFileOf('/refunds')).toBe('refunds.html');
  });

  it('serves every other route the empty SPA shell, never a prerendered page', () => {
    for (const path of [
      '/dashboard',
      '/generator',
      '/signin',
      '/success',
      '/pricing/extra',
      '/terms/x',
      '/nope',
    ])
      expect(pageFileOf(path)).toBe(SPA_SHELL);
  });
});

describe('inlineStylesheets (the prerendered pages paint without a second request)', () => {
  it("writes the build's stylesheet into the head and leaves every other tag alone", () => {
    const outDir = mkdtempSync(join(tmpdir(), 'headshot-inline-'));
    try {
      mkdirSync(join(outDir, 'assets'));
      writeFileSync(join(outDir, 'assets/index-abc.css'), 'body{color:red}');
      const html =
        '<head><link rel="icon" href="/images/logo.svg" />' +
        '<link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head>';
      expect(inlineStylesheets(html, outDir)).toBe(
        '<head><link rel="icon" href="/images/logo.svg" /><style>body{color:red}</style></head>',
      );
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
