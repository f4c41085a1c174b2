import { describe, expect, it } from 'vitest';
import { captionOf, formatCreatedAt } from '../../../frontend/src/lib/headshot-caption';
import {
  filterFromSearch,
  nameFromEmail,
  searchWithFilter,
} from '../../../frontend/src/features/dashboard/utils/filters';

describe('dashboard helpers (the filter in the URL, names, captions, dates)', () => {
  it('maps the URL to a filter and back, with all as the clean default', () => {
    expect(filterFromSearch(new URLSearchParams('filter=creative'))).toBe('creative');
    expect(filterFromSearch(new URLSearchParams('filter=suit-and-tie'))).toBe('suit-and-tie');
    expect(filterFromSearch(new URLSearchParams('filter=selfies'))).toBe('all');
    expect(filterFromSearch(new URLSearchParams(''))).toBe('all');
    expect(searchWithFilter(new URLSearchParams('x=1'), 'favorites').toString()).toBe('x=1&filter=favorites');
    expect(searchWithFilter(new URLSearchParams('filter=creative'), 'all').toString()).toBe('');
  });

  it('names, styles and dates read as the spec says', () => {
    expect(nameFromEmail('ada.lovelace@example.com')).toBe('ada.lovelace');
    expect(captionOf('business-casual')).toBe('business casual');
    expect(formatCreatedAt('not a date')).toBe('');
    expect(formatCreatedAt('2026-11-22T10:00:00Z')).toMatch(/2026/);
  });
});
