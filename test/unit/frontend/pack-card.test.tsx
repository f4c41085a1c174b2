// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CREDIT_PACKS } from '../../../functions/domain/packs';
import { packSchema, type Pack } from '../../../frontend/src/lib/api/get-packs';
import { PackCard } from '../../../frontend/src/components/packs/PackCard';

afterEach(cleanup);

// The server's own pack list, so a change there that the frontend cannot read fails here.
const packs: Pack[] = CREDIT_PACKS.map((p) => packSchema.parse(p));
const pack = (id: Pack['id']) => packs.find((p) => p.id === id)!;

describe('PackCard', () => {
  it("shows the popular pack's price, credits, per-credit price, features and badge", () => {
    render(<PackCard pack={pack('popular')} onSelect={() => {}} />);

    const card = screen.getByRole('article', { name: 'Popular Pack' });
    expect(within(card).getByText('$45')).toBeTruthy();
    expect(within(card).getByText('60 credits')).toBeTruthy();
    expect(within(card).getByText('$0.75 per credit')).toBeTruthy();
    expect(within(card).getByText('Priority generation')).toBeTruthy();
    expect(within(card).getByText('Most Popular')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Get 60 Credits' })).toBeTruthy();
  });

  it('has no badge on the other packs', () => {
    render(<PackCard pack={pack('starter')} onSelect={() => {}} />);

    expect(screen.queryByText('Most Popular')).toBeNull();
    expect(screen.getByText('$35')).toBeTruthy();
    expect(screen.getByText('$0.875 per credit')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Get 40 Credits' })).toBeTruthy();
  });

  it('calls onSelect with its pack', () => {
    const onSelect = vi.fn();
    render(<PackCard pack={pack('pro')} onSelect={onSelect} />);

    fireEvent.click(screen.getByRole('button', { name: 'Get 100 Credits' }));

    expect(onSelect).toHaveBeenCalledWith(pack('pro'));
  });

  it("reads 'Processing...' and is disabled while its purchase starts", () => {
    const onSelect = vi.fn();
    render(<PackCard pack={pack('pro')} onSelect={onSelect} processing />);

    const button = screen.getByRole('button', { name: 'Processing...' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    expect(onSelect).not.toHaveBeenCalled();
  });
});
