import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { GENERATION_TIMEOUT, HIDE_TOASTS, imagesLoaded, PHOTOS, uploadPhotos } from './generator-support';
import {
  E2E_PASSWORD,
  expectVisible,
  PHONE,
  saveScreenshot,
  screenshotFits,
  siteUrl,
  useBrowser,
  waitForPath,
} from './helpers';

/*
 * Teams (issue 37's acceptance) on a phone (390x844, touch) against the whole local stack: an owner creates a team
 * limited to one domain and locks its look, buys 3 seats with the test card on the Stripe stand-in's page, and
 * invites by link; a member at the domain signs up from the link, joins, generates with the locked look (the one
 * generation of this file that really runs) and shares two headshots; someone at another domain is refused with the
 * API's sentence; the owner's ZIP holds exactly the two shared headshots, a folder per member; removing the member
 * takes their headshots out of the team's gallery. Screenshots (`E2E_SCREENSHOTS=1`): teams-*-390.png and
 * teams-*-1280.png.
 */

const e2e = useBrowser();

/** The team's one allowed domain: a company's, not a public mail service's. */
const DOMAIN = 'acme-e2e.example';
const BRAND_COLOUR = '#1f6feb';

/** Taps a chip (a checkbox drawn as its label) of the look's `group`. */
const chip = (look: Locator, group: string, name: string) =>
  look.getByRole('group', { name: group }).getByText(name, { exact: true }).tap();

/** Locks the look: Professional, the brand's colour, Blazer (every other choice unticked). */
async function lockLook(owner: Page): Promise<void> {
  const look = owner.getByRole('region', { name: 'Brand look' });
  for (const name of ['Business Casual', 'Creative']) await chip(look, 'Styles', name);
  for (const name of ['Office', 'Studio', 'Outdoor', 'Gradient']) await chip(look, 'Backgrounds', name);
  await look.getByLabel('Custom colour').fill(BRAND_COLOUR);
  await look.getByRole('button', { name: 'Add colour' }).tap();
  for (const name of ['Keep my own clothes', 'Suit and tie', 'Shirt', 'Knitwear'])
    await chip(look, 'Outfits', name);
  await look.getByRole('button', { name: 'Save look' }).tap();
  await expectVisible(owner.getByText('Look saved'));
}

/** Buys `seats` seats from the team's page through the Stripe stand-in's hosted page, back on the team's page. */
async function buySeats(owner: Page, teamPath: string, seats: number): Promise<void> {
  const panel = owner.getByRole('region', { name: 'Seats' });
  await panel.getByLabel('Number of seats').fill(String(seats));
  await expectVisible(panel.getByText(`${seats} seats × $7.00 = $${(7 * seats).toFixed(2)}`));
  await panel.getByRole('button', { name: 'Buy seats' }).tap();
  await owner.waitForURL((u) => /^\/pay\/cs_/.test(u.pathname));
  await owner.getByRole('heading', { name: 'Pay with card' }).waitFor();
  await expectVisible(owner.getByText(`$${(7 * seats).toFixed(2)}`).first());
  await saveScreenshot(owner, 'teams-checkout-390', { fullPage: true });
  await owner.getByRole('button', { name: /^Pay / }).tap();

  const result = await waitForPath(owner, '/success');
  expect(result.searchParams.get('redirect')).toBe('team');
  const card = owner.locator('section[aria-labelledby="payment-result-title"]');
  await expectVisible(card.getByRole('heading', { level: 1, name: 'Payment Successful!' }));
  await expectVisible(card.getByText(`${seats * 8} credits have been added to your team.`));
  await expectVisible(card.getByTestId('new-balance').getByText(`${seats * 8} credits`));
  await screenshotFits(owner, 'teams-payment-success-390');
  // The countdown goes back to the team's page.
  await waitForPath(owner, teamPath, 10_000);
}

/** Signs a new account up from the join page's 'Create account', back on the join page. */
async function signUpFromJoin(page: Page, joinPath: string, email: string): Promise<void> {
  await page.getByRole('button', { name: 'Create account' }).tap();
  await page.getByRole('tab', { name: 'Create Account', selected: true }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).last().tap();
  await waitForPath(page, joinPath);
}

/** The member generates with the team's locked look and shares the first two headshots. */
async function generateAndShare(member: Page, teamName: string): Promise<void> {
  await uploadPhotos(member, [PHOTOS + 'obama.jpg', PHOTOS + 'obama2.jpg', PHOTOS + 'obama3.jpg']);
  await member.getByRole('button', { name: 'Continue' }).tap();
  await expectVisible(member.getByRole('heading', { level: 1, name: 'Choose your style' }));
  // The look is locked: one style, one outfit, each fixed and said to be the team's.
  expect(await member.getByRole('radio').count()).toBe(2);
  expect(await member.getByRole('radio', { name: 'Professional' }).isChecked()).toBe(true);
  expect(await member.getByRole('radio', { name: 'Blazer' }).isChecked()).toBe(true);
  await expectVisible(member.getByText('Set by your team').first());
  await expectVisible(member.getByTestId('team-badge').getByText(teamName));
  await screenshotFits(member, 'teams-wizard-style-390', { style: HIDE_TOASTS });
  await member.getByRole('button', { name: 'Continue' }).tap();
  await expectVisible(member.getByRole('heading', { level: 1, name: 'Choose your background' }));
  expect(await member.getByRole('radio').count()).toBe(1);
  expect(await member.getByRole('radio', { name: 'Custom colour' }).isChecked()).toBe(true);
  const teamCard = member.getByTestId('team-card');
  await expectVisible(teamCard.getByText(`Paid by ${teamName}`));
  await expectVisible(teamCard.getByText('Generation 0 of 1 · Edits 0 of 2'));
  expect(await member.getByTestId('credits-card').count()).toBe(0);
  await screenshotFits(member, 'teams-wizard-background-390', { style: HIDE_TOASTS });

  await member.getByRole('button', { name: 'Generate Headshots' }).tap();
  await member
    .getByRole('heading', { level: 1, name: 'Your headshots are ready!' })
    .waitFor({ timeout: GENERATION_TIMEOUT });
  // Made with the look: the colour backdrop is filed as the studio preset, in the professional style.
  expect(await member.getByTestId('headshot').first().locator('figcaption').innerText()).toMatch(
    /professional\s+studio/,
  );
  const share = member.getByRole('region', { name: `Share with ${teamName}` });
  await expectVisible(share.getByText('Your team sees only the headshots you share.'));
  for (const n of [1, 2]) {
    await share.getByRole('button', { name: new RegExp(`^Share with .*: Headshot ${n}:`) }).tap();
    await expectVisible(share.getByRole('button', { name: new RegExp(`^Stop sharing: Headshot ${n}:`) }));
  }
  expect(await share.getByText('Shared', { exact: true }).count()).toBe(2);
  await imagesLoaded(member);
  await screenshotFits(member, 'teams-shared-390', { style: HIDE_TOASTS });
}

/** The ZIP's entries, from 'Download ZIP' of the team's gallery. */
async function downloadZip(owner: Page): Promise<string[]> {
  const gallery = owner.getByRole('region', { name: 'Shared headshots' });
  const [download] = await Promise.all([
    owner.waitForEvent('download'),
    gallery.getByRole('button', { name: 'Download ZIP' }).tap(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^acme-.*-headshots\.zip$/);
  await expectVisible(owner.getByText('Downloaded 2 headshots as a ZIP'));
  return Object.keys(unzipSync(new Uint8Array(await readFile((await download.path())!)))).sort();
}

describe('teams on a phone', () => {
  it(
    'an owner limits a team to a domain, buys 3 seats and invites by link; a member there generates and shares two; another domain is refused; the ZIP holds exactly the shared two; removal empties the gallery',
    async () => {
      const teamName = `Acme ${randomUUID().slice(0, 6)}`;
      const { page: owner } = await e2e.newAccount({ ...PHONE, acceptDownloads: true });

      // The owner creates the team from the dashboard, limited to one domain.
      await owner.getByRole('link', { name: 'Create a team' }).tap();
      await waitForPath(owner, '/teams/new');
      await owner.getByLabel('Company name').fill(teamName);
      await owner.getByLabel('E-mail domains (optional)').fill(DOMAIN);
      await screenshotFits(owner, 'teams-create-390');
      await owner.getByRole('button', { name: 'Create team' }).tap();
      await owner.waitForURL((u) => /^\/teams\/[0-9A-Z]{26}$/.test(u.pathname));
      const teamPath = new URL(owner.url()).pathname;
      await expectVisible(owner.getByRole('heading', { level: 1, name: teamName }));
      await expectVisible(owner.getByRole('region', { name: 'Seats' }).getByText('0 credits left'));

      await lockLook(owner);
      await buySeats(owner, teamPath, 3);
      const seats = owner.getByRole('region', { name: 'Seats' });
      await expectVisible(seats.getByText('24 credits left'));
      await expectVisible(seats.getByTestId('team-purchase').getByText('Seats · 3'));

      // An invitation link limited to the domain, shown once.
      const invite = owner.getByRole('region', { name: 'Invite' });
      expect(await invite.getByRole('checkbox', { name: `Only addresses at ${DOMAIN}` }).isChecked()).toBe(
        true,
      );
      await invite.getByLabel('People who can join').fill('5');
      await invite.getByRole('button', { name: 'Create link' }).tap();
      const url = await invite.getByLabel('Copy this link now: it is shown only once.').inputValue();
      expect(url).toMatch(/\/join\/[A-Za-z0-9_-]{43}$/);
      const joinPath = new URL(url).pathname;
      await expectVisible(invite.getByTestId('invite-link').getByText('Active'));
      await screenshotFits(owner, 'teams-owner-390', { style: HIDE_TOASTS });

      // Someone at another domain is refused with the API's sentence, and joins nothing.
      const { page: outsider } = await e2e.newAccount(PHONE);
      await outsider.goto(siteUrl(joinPath));
      await outsider.getByRole('button', { name: 'Join team' }).tap();
      await expectVisible(
        outsider
          .getByTestId('join-refused')
          .getByText(
            `This team only accepts e-mail addresses at ${DOMAIN}. Sign in with your work address to join.`,
          ),
      );
      await screenshotFits(outsider, 'teams-join-refused-390');
      await outsider.setViewportSize({ width: 1280, height: 900 });
      await saveScreenshot(outsider, 'teams-join-refused-1280', { fullPage: true });
      await outsider.context().close();

      // A member at the domain signs up from the link, joins, generates with the locked look and shares two.
      const memberEmail = `e2e-member-${randomUUID().slice(0, 8)}@${DOMAIN}`;
      const member = await e2e.newPage(PHONE);
      await member.goto(siteUrl(joinPath));
      await expectVisible(
        member.getByRole('heading', { level: 1, name: `Join ${teamName} on Headshot Studio` }),
      );
      await expectVisible(member.getByText(`Use your address at ${DOMAIN}.`));
      await screenshotFits(member, 'teams-join-390');
      await signUpFromJoin(member, joinPath, memberEmail);
      await member.getByRole('button', { name: 'Join team' }).tap();
      await expectVisible(member.getByRole('heading', { level: 1, name: `You joined ${teamName}.` }));
      await member.getByRole('link', { name: 'Make your team headshots' }).tap();
      await waitForPath(member, '/generator');
      await generateAndShare(member, teamName);
      // Their team page: their seat used, their six team headshots with the two shared, the look; nothing of the team's.
      await member.getByRole('link', { name: `Back to ${teamName}` }).tap();
      await waitForPath(member, teamPath);
      await expectVisible(member.getByTestId('my-allowance').getByText('Generation 1 of 1 · Edits 0 of 2'));
      const mine = member.getByRole('region', { name: 'Your team headshots' });
      await expect.poll(() => mine.getByTestId('shareable-headshot').count()).toBe(6);
      expect(await mine.locator('[data-testid="shareable-headshot"][data-shared]').count()).toBe(2);
      expect(await member.getByRole('region', { name: 'Members' }).count()).toBe(0);
      await imagesLoaded(member);
      await screenshotFits(member, 'teams-member-390', { style: HIDE_TOASTS });
      await member.setViewportSize({ width: 1280, height: 900 });
      await imagesLoaded(member);
      await saveScreenshot(member, 'teams-member-1280', { fullPage: true, style: HIDE_TOASTS });
      await member.setViewportSize(PHONE.viewport);

      // The owner sees the member's state, and the ZIP holds exactly the two shared headshots in their folder.
      await owner.reload();
      const row = owner.getByTestId('team-member').filter({ hasText: memberEmail });
      await expectVisible(row.getByText('Shared', { exact: true }));
      await expectVisible(row.getByText('Generation 1 of 1 · Edits 0 of 2'));
      await expectVisible(seats.getByText('18 credits left'));
      const gallery = owner.getByRole('region', { name: 'Shared headshots' });
      await expect.poll(() => gallery.getByTestId('team-headshot').count()).toBe(2);
      const entries = await downloadZip(owner);
      expect(entries.every((name) => name.startsWith(`${memberEmail}/headshot-professional-studio-`))).toBe(
        true,
      );
      const headshots = new Set(entries.map((name) => /-(\d)-(square|portrait|original)\./.exec(name)?.[1]));
      expect([...headshots].sort()).toEqual(['1', '2']);
      expect(entries).toHaveLength(6);
      await imagesLoaded(owner);
      await screenshotFits(owner, 'teams-gallery-390', { style: HIDE_TOASTS });
      await owner.setViewportSize({ width: 1280, height: 900 });
      await imagesLoaded(owner);
      await saveScreenshot(owner, 'teams-owner-1280', { fullPage: true, style: HIDE_TOASTS });
      await owner.setViewportSize(PHONE.viewport);

      // Removing the member, after the question, takes their headshots out of the gallery.
      await row.getByRole('button', { name: 'Remove' }).tap();
      const dialog = owner.getByRole('dialog', { name: `Remove ${memberEmail} from ${teamName}?` });
      await dialog.getByRole('button', { name: 'Remove' }).tap();
      await expectVisible(gallery.getByText('No one has shared a headshot yet.'));
      expect(await gallery.getByRole('button', { name: 'Download ZIP' }).isDisabled()).toBe(true);
      expect(await owner.getByTestId('team-member').filter({ hasText: memberEmail }).count()).toBe(0);

      // The member's page is gone for them; their headshots stay theirs.
      await member.goto(siteUrl(teamPath));
      await expectVisible(member.getByText("This team doesn't exist, or you are not one of its members."));
      await member.setViewportSize({ width: 1280, height: 900 });
      await member.goto(siteUrl('/dashboard'));
      await expect.poll(() => member.getByTestId('headshot-card').count(), { timeout: 15_000 }).toBe(6);
      await member.context().close();
      await owner.context().close();
    },
    GENERATION_TIMEOUT + 240_000,
  );
});
