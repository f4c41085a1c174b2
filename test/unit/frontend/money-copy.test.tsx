// @vitest-environment jsdom
// The session stand-in first: the sign-in screen imports Amplify statically.
import { signedOut } from './auth-session';
import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { BackgroundStep } from '../../../frontend/src/features/generator/components/BackgroundStep';
import {
  generateControls,
  insufficientCreditsToast,
  wizardCost,
} from '../../../frontend/src/features/generator/utils/wizard-rules';
import { STEPS } from '../../../frontend/src/features/landing/utils/content';
import { aboutMinutes, generationTime, WITHOUT_ESTIMATE } from '../../../frontend/src/lib/generation-time';
import { COST_PER_HEADSHOT_LINE } from '../../../frontend/src/lib/headshot-cost';
import { renderAt } from './render';

/*
 * Issue 35, "money copy from one source": every figure of a generation's cost comes from the server's rule
 * (functions/domain/generation-cost.ts) and every time line from the provider line's ETA (lib/generation-time.ts),
 * so no two elements of a screen can disagree; step 3's summary counts the photos that will be used and reads
 * whole on a phone.
 */

describe("the wizard's cost (wizard-rules wizardCost)", () => {
  it('is the server rule at the chosen resolution: 6, or 12 with high resolution', () => {
    expect(wizardCost()).toBe(6);
    expect(wizardCost(false)).toBe(6);
    expect(wizardCost(true)).toBe(12);
  });

  it('names the cost of what is chosen in the toast', () => {
    expect(insufficientCreditsToast(4)).toBe('Insufficient credits! You need 6 credits but only have 4.');
    expect(insufficientCreditsToast(7, true)).toBe(
      'Insufficient credits! You need 12 credits but only have 7.',
    );
  });

  it('under 6 credits with high resolution on, the notice asks for 12, not 6', () => {
    expect(
      generateControls({ credits: 4, hasBackground: true, generating: false, highResolution: true }),
    ).toMatchObject({
      label: 'Insufficient Credits',
      lowCredits: true,
      notice: 'You need 12 credits to generate high-resolution headshots, but you only have 4.',
    });
  });
});

/** Step 3 with the high-resolution option offered, its switch held in state as GeneratorPage holds it. */
function Step3({ credits, photoCount = 5 }: { credits: number; photoCount?: number }) {
  const [on, setOn] = useState(false);
  return (
    <BackgroundStep
      value="office"
      onChange={() => {}}
      style="business-casual"
      photoCount={photoCount}
      credits={credits}
      generating={false}
      onGenerate={() => {}}
      highResolution={{ on, onChange: setOn }}
    />
  );
}

describe('step 3 states one total on every element', () => {
  it('standard: the credits card and the button say 6 credits', () => {
    renderAt('/generator', { element: <Step3 credits={20} /> });
    const card = screen.getByTestId('credits-card');
    expect(card.textContent).toContain('This generation uses 6 credits.');
    expect(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' })).toBeTruthy();
  });

  it('high resolution: the option, the credits card and the button all say 12 credits', () => {
    renderAt('/generator', { element: <Step3 credits={20} /> });
    fireEvent.click(screen.getByRole('switch', { name: /High resolution/ }));
    expect(screen.getByText(/12 credits for 6 headshots\./)).toBeTruthy();
    expect(screen.getByTestId('credits-card').textContent).toContain('This generation uses 12 credits.');
    expect(screen.getByRole('button', { name: 'Generate Headshots (12 credits)' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/\b6 credits\b/);
  });
});

describe("step 3's summary", () => {
  it('shows the count it is given (the photos the check did not reject) and no fixed duration', () => {
    renderAt('/generator', { element: <Step3 credits={20} photoCount={3} /> });
    const summary = screen.getByRole('heading', { name: 'Your headshots' }).parentElement!;
    const photos = within(summary).getByText('Photos').closest('div')!;
    expect(photos.querySelector('dd')?.textContent).toBe('3');
    expect(summary.textContent).toContain(
      'You get 6 headshots, each as a 1024×1024 square, a 4:5 portrait and the original PNG as it was generated. Each headshot appears as soon as it is made.',
    );
    expect(summary.textContent).not.toMatch(/minutes/);
  });

  it("wraps its values instead of cutting them ('Not chosen yet' reads whole on a phone)", () => {
    renderAt('/generator', {
      element: (
        <BackgroundStep
          value={null}
          onChange={() => {}}
          style="business-casual"
          photoCount={2}
          credits={20}
          generating={false}
          onGenerate={() => {}}
        />
      ),
    });
    const value = screen.getByText('Not chosen yet');
    expect(value.tagName).toBe('DD');
    expect(value.className).not.toMatch(/\btruncate\b/);
    expect(value.className).toMatch(/\bbreak-words\b/);
  });
});

describe('the time line (lib/generation-time.ts)', () => {
  it("comes from the line's ETA while the generation waits, in whole minutes rounded up", () => {
    expect(generationTime({ position: 3, etaSeconds: 130 })).toBe('Your headshots start in about 3 minutes');
    expect(generationTime({ position: 1, etaSeconds: 20 })).toBe('Your headshots start in about 1 minute');
    expect(aboutMinutes(0)).toBe('about 1 minute');
    expect(aboutMinutes(60)).toBe('about 1 minute');
    expect(aboutMinutes(61)).toBe('about 2 minutes');
  });

  it('states no number without an estimate: not in line yet, running, or unknown', () => {
    expect(generationTime()).toBe(WITHOUT_ESTIMATE);
    expect(generationTime(null)).toBe(WITHOUT_ESTIMATE);
    expect(generationTime({ position: 0, etaSeconds: 0 })).toBe(WITHOUT_ESTIMATE);
    expect(WITHOUT_ESTIMATE).not.toMatch(/\d/);
  });
});

describe('screens without an estimate state no duration', () => {
  it("the landing: the hero's highlight, the 'AI generates' step, the closing call and the pricing line", async () => {
    signedOut();
    renderAt('/');
    expect(await screen.findByText(WITHOUT_ESTIMATE)).toBeTruthy();
    expect(STEPS.find((step) => step.title === 'AI generates')?.text).toBe(
      `Our AI studies your features and creates a set of realistic, professional headshots. ${WITHOUT_ESTIMATE}.`,
    );
    expect(document.body.textContent).toContain(`and get your professional headshots. ${WITHOUT_ESTIMATE}.`);
    expect(document.body.textContent).toContain(`${COST_PER_HEADSHOT_LINE}. Buy once`);
    expect(document.body.textContent).not.toMatch(/2-3 minutes|in minutes/);
  });

  it("the sign-in page's perks", async () => {
    signedOut();
    renderAt('/signin?mode=signup');
    expect(await screen.findByText(WITHOUT_ESTIMATE, {}, { timeout: 5000 })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/2-3 minutes/);
  });

  it('the Terms of Service state the cost of both resolutions from the same rule', async () => {
    signedOut();
    renderAt('/terms');
    await screen.findByRole('heading', { level: 2, name: 'The service' });
    expect(document.body.textContent).toContain(
      'a generation of 6 headshots costs 6 credits (12 at high resolution)',
    );
  });

  it('the cost line names both prices of a headshot', () => {
    expect(COST_PER_HEADSHOT_LINE).toBe('Each headshot costs 1 credit, or 2 in high resolution');
  });
});
