// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  ANALYTICS_EVENT_RETENTION_DAYS,
  HEADSHOT_RETENTION_DAYS,
  PHOTO_CHECK_RETENTION_DAYS,
  UPLOAD_RETENTION_DAYS,
} from '../../../functions/domain/retention';
import {
  PrivacyPage,
  RefundPolicyPage,
  RETENTION_ROWS,
  TermsPage,
} from '../../../frontend/src/features/legal';
import { LEGAL_ENTITY_PLACEHOLDERS } from '../../../frontend/src/config/legal-entity';
import { LandingFooter } from '../../../frontend/src/features/landing/components/LandingFooter';
import { formatDays } from '../../../frontend/src/lib/format-period';
import { REFUND_POLICY } from '../../../frontend/src/lib/refund-policy';
import { renderAt, testConfig } from './render';

/*
 * The legal pages (issue 27 item 7): the Privacy Policy's retention periods are the infrastructure's constants
 * (functions/domain/retention.ts), the Refund Policy's rules lib/refund-policy.ts's sentences, and every page says
 * while the company's details are placeholders.
 */

describe('formatDays', () => {
  it('says a period as the pages do', () => {
    expect(formatDays(1)).toBe('1 day');
    expect(formatDays(7)).toBe('7 days');
    expect(formatDays(365)).toBe('12 months');
    expect(formatDays(400)).toBe('400 days (about 13 months)');
  });
});

describe('the legal pages', () => {
  it('Privacy Policy: states each retention period from the shared constants', () => {
    renderAt('/privacy', { element: <PrivacyPage /> });
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    const table = screen.getByRole('table');
    const row = (name: RegExp) => within(table).getByRole('row', { name });
    expect(row(/^Photos you upload/).textContent).toContain(formatDays(UPLOAD_RETENTION_DAYS));
    expect(row(/^Face measurements/).textContent).toContain(formatDays(PHOTO_CHECK_RETENTION_DAYS));
    expect(row(/^Generated headshots/).textContent).toContain(formatDays(HEADSHOT_RETENTION_DAYS));
    expect(row(/^Usage analytics/).textContent).toContain(formatDays(ANALYTICS_EVENT_RETENTION_DAYS));
    expect(within(table).getAllByRole('row')).toHaveLength(RETENTION_ROWS.length + 1);
    expect(screen.getByText('OpenAI').closest('li')?.textContent).toMatch(
      /we send OpenAI your 3 best photos/,
    );
    expect(screen.getAllByRole('link', { name: testConfig.supportEmail }).length).toBeGreaterThan(0);
    expect(screen.getByRole('note').textContent).toMatch(/placeholders to be completed before launch/);
  });

  it('Privacy Policy: what a team sees, and what happens when a member leaves or is removed (issue 37 §5)', () => {
    renderAt('/privacy', { element: <PrivacyPage /> });
    const teams = screen.getByRole('heading', { name: 'Teams' }).closest('section')!;
    expect(teams.textContent).toContain(
      "A team's owner and admins see only this of you: your e-mail address, your role, how much of your team allowance you have used, and the headshots you choose to share with the team.",
    );
    expect(teams.textContent).toContain(
      "When you leave a team or are removed from it, the headshots you shared leave the team's gallery and the team no longer has your e-mail address",
    );
    const table = screen.getByRole('table');
    expect(
      within(table).getByRole('row', { name: /^Headshots you share with a team/ }).textContent,
    ).toContain('until you stop sharing them, delete them or leave the team');
  });

  it("Refund Policy: the dashboard's refund sentences, the likeness threshold", () => {
    renderAt('/refunds', { element: <RefundPolicyPage /> });
    expect(screen.getByText(REFUND_POLICY.summary(testConfig.supportEmail))).toBeTruthy();
    expect(screen.getByText(REFUND_POLICY.automatic)).toBeTruthy();
    expect(screen.getByText(REFUND_POLICY.toCard)).toBeTruthy();
    expect(screen.getByText(/We deliver a headshot only when it scores at least 55%/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Our likeness guarantee' }).id).toBe('likeness-guarantee');
  });

  it('Terms of Service: links the other two policies', () => {
    renderAt('/terms', { element: <TermsPage /> });
    const others = screen.getByRole('navigation', { name: 'Other policies' });
    expect(within(others).getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      '/privacy',
    );
    expect(within(others).getByRole('link', { name: 'Refund Policy' }).getAttribute('href')).toBe('/refunds');
    expect(within(others).queryByRole('link', { name: 'Terms of Service' })).toBeNull();
  });
});

describe('the company behind the pages (issue 35 item 2)', () => {
  const entity = {
    name: 'Example Portraits Ltd',
    address: '1 Example Street, London EC1A 1AA, United Kingdom',
    registration: 'Company number 01234567',
    jurisdiction: 'England and Wales',
  };
  const pages = [
    ['/terms', <TermsPage key="terms" />],
    ['/privacy', <PrivacyPage key="privacy" />],
    ['/refunds', <RefundPolicyPage key="refunds" />],
  ] as const;
  const DRAFT = 'Draft: the company details in brackets are placeholders to be completed before launch.';

  it.each(pages)('%s without an entity in /config.json: the Draft notice (local, dev)', (path, element) => {
    renderAt(path, { element });
    expect(screen.getByRole('note').textContent).toBe(DRAFT);
  });

  it('Terms and Privacy without an entity print every placeholder, never a made-up company', () => {
    const { unmount } = renderAt('/terms', { element: <TermsPage /> });
    const terms = document.body.textContent ?? '';
    for (const placeholder of Object.values(LEGAL_ENTITY_PLACEHOLDERS)) expect(terms).toContain(placeholder);
    unmount();
    renderAt('/privacy', { element: <PrivacyPage /> });
    expect(screen.getByRole('region', { name: 'Who we are' }).textContent).toContain(
      `${LEGAL_ENTITY_PLACEHOLDERS.name}, ${LEGAL_ENTITY_PLACEHOLDERS.address} (${LEGAL_ENTITY_PLACEHOLDERS.registration})`,
    );
  });

  it.each(pages)('%s with the entity: no Draft notice, no placeholder', (path, element) => {
    renderAt(path, { element, config: { ...testConfig, legalEntity: entity } });
    expect(screen.queryByRole('note')).toBeNull();
    expect(document.body.textContent).not.toMatch(/\[[A-Z][a-z]+ [^\]]*\]/);
  });

  it('Terms name the company, its office, its registration and the governing law', () => {
    renderAt('/terms', { element: <TermsPage />, config: { ...testConfig, legalEntity: entity } });
    const text = document.body.textContent ?? '';
    expect(text).toContain(
      `the agreement between you and ${entity.name} (${entity.address}, ${entity.registration}), which runs Headshot Studio`,
    );
    expect(screen.getByRole('region', { name: 'Governing law' }).textContent).toContain(
      `governed by the law of ${entity.jurisdiction}.`,
    );
  });

  it("the footer's copyright names the company, and the product while there is none", () => {
    const year = new Date().getFullYear();
    const { unmount } = renderAt('/terms', { element: <TermsPage /> });
    expect(screen.getByRole('contentinfo').textContent).toContain(`© ${year} Headshot Studio`);
    unmount();
    renderAt('/terms', { element: <TermsPage />, config: { ...testConfig, legalEntity: entity } });
    expect(screen.getByRole('contentinfo').textContent).toContain(`© ${year} ${entity.name}`);
  });

  it("the landing footer's copyright names the company too", () => {
    renderAt('/', { element: <LandingFooter />, config: { ...testConfig, legalEntity: entity } });
    expect(screen.getByRole('contentinfo').textContent).toContain(
      `© ${new Date().getFullYear()} ${entity.name}. All rights reserved.`,
    );
  });

  it('Privacy names the data controller and the support address to write to', () => {
    const config = { ...testConfig, supportEmail: 'help@example.com', legalEntity: entity };
    renderAt('/privacy', { element: <PrivacyPage />, config });
    const who = screen.getByRole('region', { name: 'Who we are' });
    expect(who.textContent).toContain(`${entity.name}, ${entity.address} (${entity.registration}), runs`);
    expect(within(who).getByRole('link', { name: 'help@example.com' }).getAttribute('href')).toBe(
      'mailto:help@example.com',
    );
  });
});
