import { useId } from 'react';
import { cx } from '../../lib/cx';

/** The logo glyph alone: a portrait silhouette with a spark, on the brand gradient. Decorative. */
export function LogoGlyph({ className }: { className?: string }) {
  // Several glyphs can be on one page; a fixed gradient id would make them share (or lose) one definition.
  const gradientId = useId();
  return (
    <svg
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      className={cx('size-8 shrink-0', className)}
    >
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#4338ca" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <circle cx="16" cy="13" r="5" fill="#fff" />
      <path d="M7 26c1.2-4.6 4.7-7 9-7s7.8 2.4 9 7z" fill="#fff" />
      <path d="M25 4.5l.9 2.1 2.1.9-2.1.9-.9 2.1-.9-2.1-2.1-.9 2.1-.9z" fill="#fde68a" />
    </svg>
  );
}

/**
 * The brand: logo glyph plus the product name. `tone` picks the text colour for light or dark backgrounds;
 * `nameClassName` can hide the name on narrow screens (e.g. `hidden md:inline`).
 */
export function BrandMark({
  tone = 'dark',
  className,
  nameClassName,
}: {
  tone?: 'dark' | 'light';
  className?: string;
  nameClassName?: string;
}) {
  return (
    <span className={cx('inline-flex items-center gap-2 sm:gap-2.5', className)}>
      <LogoGlyph className="size-7 sm:size-8" />
      <span
        className={cx(
          'font-display text-sm font-bold tracking-tight whitespace-nowrap min-[400px]:text-base sm:text-lg',
          tone === 'dark' ? 'text-slate-900' : 'text-white',
          nameClassName,
        )}
      >
        Headshot Studio
      </span>
    </span>
  );
}
