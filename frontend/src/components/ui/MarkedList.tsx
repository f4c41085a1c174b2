import type { ReactNode } from 'react';

/**
 * A list of short texts, each preceded by the same decorative `marker` (a check icon, a dot). `items` are unique
 * (they key the rows); `className` styles the list and `itemClassName` each row.
 */
export function MarkedList({
  items,
  marker,
  className,
  itemClassName,
}: {
  items: readonly string[];
  marker: ReactNode;
  className: string;
  itemClassName: string;
}) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item} className={itemClassName}>
          {marker}
          {item}
        </li>
      ))}
    </ul>
  );
}
