import { Download, Heart, MoreHorizontal, Trash2, type LucideIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Spinner } from './ui/Spinner';
import { useFloatingPlacement } from '../hooks/use-floating-placement';
import { usePending } from '../hooks/use-pending';
import type { Headshot } from '../lib/api/contracts';
import { cx } from '../lib/cx';

/** The menu's texts, docs/product-spec.md §2 ("Step 4, when done" and "Dashboard") verbatim. */
export const ACTIONS_TEXT = {
  menu: 'Actions',
  favorite: 'Add to favorites',
  unfavorite: 'Remove from favorites',
  download: 'Download',
  delete: 'Delete',
} as const;

/** Props of {@link HeadshotActions}. */
export interface HeadshotActionsProps {
  headshot: Headshot;
  onToggleFavorite: (headshot: Headshot) => void;
  /** Saves the square JPEG; the menu's button spins until it resolves. */
  onDownload: (headshot: Headshot) => Promise<void>;
  /** Asks to delete it (the dashboard confirms first); absent (the generator's results), the menu has no Delete. */
  onDelete?: (headshot: Headshot) => void;
}

/**
 * A headshot card's actions (issue 35 item 6), in the dashboard's gallery and the generator's results: a '⋯'
 * button under the image, so nothing covers the face, opening a menu of favorite, download and, when `onDelete` is
 * given, delete, set apart at its foot; the menu floats inside the viewport
 * ({@link useFloatingPlacement}), over the card's own image when there is room above. WAI-ARIA menu button pattern
 * (https://www.w3.org/WAI/ARIA/apg/patterns/menu-button/): the first item takes the focus, the arrow keys, Home
 * and End move it, Escape and Tab close the menu; a tap or click elsewhere closes it too.
 */
export function HeadshotActions({ headshot, onToggleFavorite, onDownload, onDelete }: HeadshotActionsProps) {
  const [open, setOpen] = useState(false);
  const { pending: downloading, run: download } = usePending(() => onDownload(headshot));
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const placement = useFloatingPlacement(open, trigger, menu, 'end');

  // A browser does not focus an element under `visibility: hidden`, which the menu has until its first place is
  // measured: its first item takes the focus once the menu shows.
  const shown = open && placement?.visibility !== 'hidden';
  useEffect(() => {
    if (shown) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [shown]);
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };
  // An item closes the menu (focus back on ⋯) before its action runs.
  const choose = (action: () => void) => {
    close();
    action();
  };

  return (
    <div ref={root} className="relative shrink-0">
      <button
        ref={trigger}
        type="button"
        aria-label={ACTIONS_TEXT.menu}
        title={ACTIONS_TEXT.menu}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-busy={downloading || undefined}
        onClick={() => setOpen((was) => !was)}
        className="-m-1 inline-flex size-9 items-center justify-center rounded-full text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {downloading ? (
          <Spinner size="sm" label={null} />
        ) : (
          <MoreHorizontal aria-hidden="true" className="size-5" />
        )}
      </button>
      <div
        ref={menu}
        id={menuId}
        role="menu"
        aria-label={ACTIONS_TEXT.menu}
        hidden={!open}
        onKeyDown={(event) => onMenuKey(event, close, () => setOpen(false))}
        style={placement}
        className="z-40 w-56 max-w-[calc(100vw-1rem)] rounded-2xl bg-white py-1.5 shadow-xl ring-1 ring-slate-900/10"
      >
        <MenuItem
          icon={Heart}
          iconClassName={headshot.isFavorite ? 'fill-rose-500 text-rose-500' : undefined}
          label={headshot.isFavorite ? ACTIONS_TEXT.unfavorite : ACTIONS_TEXT.favorite}
          onClick={() => choose(() => onToggleFavorite(headshot))}
        />
        <MenuItem
          icon={Download}
          label={ACTIONS_TEXT.download}
          disabled={downloading}
          onClick={() => choose(() => void download())}
        />
        {onDelete && (
          <>
            <div role="separator" className="my-1.5 border-t border-slate-100" />
            <MenuItem
              icon={Trash2}
              label={ACTIONS_TEXT.delete}
              danger
              onClick={() => choose(() => onDelete(headshot))}
            />
          </>
        )}
      </div>
    </div>
  );
}

/** Arrow keys, Home and End move the focus among the items; Escape closes (focus back on ⋯), Tab closes. */
function onMenuKey(event: KeyboardEvent<HTMLDivElement>, close: () => void, dismiss: () => void): void {
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])')];
  const at = items.indexOf(document.activeElement as HTMLElement);
  const moves: Record<string, number> = {
    ArrowDown: (at + 1) % items.length,
    ArrowUp: (at - 1 + items.length) % items.length,
    Home: 0,
    End: items.length - 1,
  };
  if (event.key in moves) {
    event.preventDefault();
    items[moves[event.key]!]?.focus();
  } else if (event.key === 'Escape') {
    event.preventDefault();
    close();
  } else if (event.key === 'Tab') {
    dismiss();
  }
}

function MenuItem({
  icon: Icon,
  iconClassName,
  label,
  onClick,
  disabled = false,
  danger = false,
}: {
  icon: LucideIcon;
  iconClassName?: string;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** Red: a step that cannot be undone. */
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      disabled={disabled}
      onClick={onClick}
      className={cx(
        'flex w-full items-center gap-2.5 px-3.5 py-2.5 text-left text-sm font-medium focus-visible:outline-none disabled:opacity-60',
        danger
          ? 'text-red-700 hover:bg-red-50 focus:bg-red-50'
          : 'text-slate-800 hover:bg-slate-50 focus:bg-slate-50',
      )}
    >
      <Icon aria-hidden="true" className={cx('size-4 shrink-0', iconClassName)} />
      {label}
    </button>
  );
}
