import type { Headshot } from './api/contracts';

/** A style or background as a caption shows it: hyphens as spaces (`business-casual` → `business casual`). */
export function captionOf(id: string): string {
  return id.replaceAll('-', ' ');
}

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A headshot's creation date in the reader's locale, e.g. 'Nov 22, 2026'; '' for an unreadable timestamp. */
export function formatCreatedAt(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE.format(date);
}

/** 'Professional headshot, office background, Nov 22, 2026': what the image is, for screen readers. */
export function describeHeadshot(headshot: Pick<Headshot, 'style' | 'background' | 'createdAt'>): string {
  const date = formatCreatedAt(headshot.createdAt);
  return `${captionOf(headshot.style)} headshot, ${captionOf(headshot.background)} background${date ? `, ${date}` : ''}`;
}
