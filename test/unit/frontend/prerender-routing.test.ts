import { describe, expect, it } from 'vitest';
import { pageFileOf, SPA_SHELL } from '../../../frontend/scripts/prerender-plugin';

describe('pageFileOf (the preview server, as the CloudFront function maps paths)', () => {
  it('serves the prerendered landing and pricing pages by their path', () => {
    expect(pageFileOf('/')).toBe('index.html');
    expect(pageFileOf('/pricing')).toBe('pricing.html');
    expect(pageFileOf('/pricing/')).toBe('pricing.html');
  });

  it('serves every other route the empty SPA shell, never a prerendered page', () => {
    for (const path of ['/dashboard', '/generator', '/signin', '/success', '/pricing/extra', '/nope'])
      expect(pageFileOf(path)).toBe(SPA_SHELL);
  });
});
