import * as z from 'zod/mini';
import { defineSettings } from './settings';

/** The public site: where Stripe returns the customer, what the ready e-mail links to, who support is. */
const site = defineSettings(
  z.object({
    /** The site's public origin, e.g. `https://headshots.example.com` (default `http://localhost:5173`, Vite). */
    SITE_ORIGIN: z._default(z.url(), 'http://localhost:5173'),
    /** The support address shown to customers (default `support@headshot.studio`). */
    SUPPORT_EMAIL: z._default(z.email(), 'support@headshot.studio'),
  }),
);

/** The site's origin and support address. */
export type SiteSettings = ReturnType<typeof site.load>;
/** The site settings of this execution environment (parsed once per cold start). */
export const siteSettings = site.load;
/** Parses an environment's site settings. @throws {ConfigError} naming each bad variable. */
export const parseSiteSettings = site.parse;
