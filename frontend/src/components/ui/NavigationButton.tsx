import type { MouseEvent } from 'react';
import { Button, type ButtonProps } from './Button';

/** Props of {@link NavigationButton}. */
export interface NavigationButtonProps extends Omit<ButtonProps, 'type' | 'onClick'> {
  /**
   * Where the button goes when the app's script has not run yet: a same-origin path with an optional query, e.g.
   * `/signin?mode=signup&returnTo=%2Fdashboard`. Its query becomes the form's hidden fields, in order.
   */
  href: string;
  /** What the button does once the app runs; the form is then never submitted. */
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
}

/** Splits a same-origin `href` into the form's action (the path) and its fields (the query, in order). */
export function formOf(href: string): { action: string; fields: [name: string, value: string][] } {
  const url = new URL(href, 'https://navigation.invalid');
  return { action: url.pathname, fields: [...url.searchParams] };
}

/**
 * A button that works before the app's JavaScript has loaded (issue 27 "taps that always work"). The landing and
 * pricing pages arrive as HTML rendered at build time, which is on screen, and tapped, well before the app hydrates
 * it; a plain `<button>` ignores those taps. This one is the submit button of a GET form to `href`, so the browser
 * itself navigates there (e.g. to Create Account); once the app has hydrated the page, `onClick` runs instead and
 * cancels the submission, so the app can decide better (signed in: the dashboard; a browser signed in before: Sign
 * In). The form takes no room of its own (`display: contents`), so the button lays out as a plain one would.
 */
export function NavigationButton({ href, onClick, ...props }: NavigationButtonProps) {
  const { action, fields } = formOf(href);
  return (
    <form action={action} method="get" className="contents">
      {fields.map(([name, value], index) => (
        <input key={`${index}-${name}`} type="hidden" name={name} value={value} />
      ))}
      <Button
        {...props}
        type="submit"
        onClick={(event) => {
          event.preventDefault();
          onClick(event);
        }}
      />
    </form>
  );
}
