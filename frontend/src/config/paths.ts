/**
 * Every route of the SPA (docs/product-spec.md §2 "Screens"), in one place: `path` is the router's pattern (relative
 * to the root layout, as `app/router.tsx` mounts it), `href` the link to it. No other module writes a route as a
 * string, so renaming a screen is one edit here.
 */
export const paths = {
  /** The landing page; `#pricing` is its pricing section. */
  home: { path: '/', href: '/', pricingSection: '/#pricing' },
  pricing: { path: 'pricing', href: '/pricing' },
  /** The signed-in gallery. */
  dashboard: { path: 'dashboard', href: '/dashboard' },
  /** The four-step headshot wizard. */
  generator: { path: 'generator', href: '/generator' },
  /**
   * Stripe Checkout's `cancel_url` (`?pack=<packId>`): the payment was not completed (cancelled, or given up after a
   * declined card), nothing was charged, and the same pack is offered again.
   */
  checkoutCancelled: { path: 'checkout/cancelled', href: '/checkout/cancelled' },
  /** The legal pages (issue 27 item 7): open to everyone, rendered to HTML at build time like the landing page. */
  terms: { path: 'terms', href: '/terms' },
  privacy: { path: 'privacy', href: '/privacy' },
  refunds: { path: 'refunds', href: '/refunds' },
  /** Teams (issue 37, docs/teams.md): creating one, a team's page, and the page an invitation link opens. */
  newTeam: { path: 'teams/new', href: '/teams/new' },
  team: { path: 'teams/:teamId' },
  join: { path: 'join/:token' },
  /** Sign in and sign up; `?returnTo=` and `?mode=signup` are built by `lib/auth` (`signInPath`). */
  signIn: { path: 'signin', href: '/signin' },
  /**
   * Where Stripe Checkout returns: every path STARTING with `/success` (`/success?session_id=…`), which a route
   * pattern cannot express, so the catch-all route checks {@link isPaymentResultPath}.
   */
  paymentResult: { prefix: '/success' },
} as const;

/** Whether a path belongs to the payment result page ("any path starting with success"). */
export function isPaymentResultPath(pathname: string): boolean {
  return pathname.startsWith(paths.paymentResult.prefix);
}

/** The wizard's step 4 for one generation: its progress, then its results (features/generator/hooks/use-wizard-route.ts). */
export function generationHref(generationId: string): string {
  return `${paths.generator.href}?step=4&generation=${encodeURIComponent(generationId)}`;
}

/** The landing page with a purchase to resume once signed in: `/?buy=<packId>#pricing`. */
export function landingBuyHref(packId: string): string {
  return `${paths.home.href}?buy=${encodeURIComponent(packId)}#pricing`;
}

/** A team's page: its dashboard for the owner and admins, a member's own seat and look for a member. */
export function teamHref(teamId: string): string {
  return `/teams/${encodeURIComponent(teamId)}`;
}

/** The wizard started for a team (issue 37): the team's look and allowance instead of the customer's own choices. */
export function teamGeneratorHref(teamId: string): string {
  return `${paths.generator.href}?${new URLSearchParams({ team: teamId }).toString()}`;
}
