// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BackgroundStep } from '../../../frontend/src/features/generator/components/BackgroundStep';
import type { Generation, Headshot } from '../../../frontend/src/lib/api/get-generation';
import { GENERATOR_TEXT } from '../../../frontend/src/features/generator/utils/content';
import { captionOf } from '../../../frontend/src/lib/headshot-caption';
import {
  effectiveType,
  formatMegabytes,
  inChosenOrder,
  isAcceptedPhoto,
  isHeic,
  MAX_FILE_BYTES,
  refusalOf,
  selectFiles,
  type FileLike,
} from '../../../frontend/src/features/generator/utils/file-rules';
import { fitWithin } from '../../../frontend/src/features/generator/utils/image-prep';
import { keepHeadshotUrls, pollIntervalMs } from '../../../frontend/src/hooks/use-generation';
import {
  generateControls,
  progressStatusText,
} from '../../../frontend/src/features/generator/utils/wizard-rules';
import { generationOf, headshotOf } from './fixtures';
import { renderAt } from './render';

/*
 * The generator wizard's pure rules: docs/product-spec.md §5 upload validation and its messages, the step-4 status text by
 * percent, and the step-3 generate button / credits notice states (docs/product-spec.md §2).
 */

const MB = 1024 * 1024;
const file = (name: string, type: string, size = 200_000): FileLike => ({ name, type, size });

describe('upload rules (docs/product-spec.md §5)', () => {
  it('accepts images up to exactly 10 MB and drops the rest silently', () => {
    expect(MAX_FILE_BYTES).toBe(10 * 1024 * 1024);
    expect(isAcceptedPhoto(file('a.jpg', 'image/jpeg', 10 * MB))).toBe(true);
    expect(isAcceptedPhoto(file('a.jpg', 'image/jpeg', 10 * MB + 1))).toBe(false);
    expect(isAcceptedPhoto(file('a.png', 'image/png', 1))).toBe(true);
    expect(isAcceptedPhoto(file('a.webp', 'image/webp'))).toBe(true);
    expect(isAcceptedPhoto(file('a.pdf', 'application/pdf'))).toBe(false);
    expect(isAcceptedPhoto(file('notes.txt', 'text/plain'))).toBe(false);
    expect(isAcceptedPhoto(file('nothing', ''))).toBe(false);
    expect(isAcceptedPhoto(file('empty.jpg', 'image/jpeg', 0))).toBe(false);
  });

  it('treats .heic/.heif without a browser type as image/heic / image/heif', () => {
    expect(effectiveType(file('IMG_0001.HEIC', ''))).toBe('image/heic');
    expect(effectiveType(file('photo.heif', 'application/octet-stream'))).toBe('image/heif');
    expect(effectiveType(file('photo.heic', 'image/heic'))).toBe('image/heic');
    expect(effectiveType(file('a.JPG', 'IMAGE/JPEG'))).toBe('image/jpeg');
    // A real non-image type is not overridden by the name.
    expect(effectiveType(file('trick.heic', 'text/plain'))).toBe('text/plain');
    expect(isAcceptedPhoto(file('IMG_0001.HEIC', ''))).toBe(true);
    expect(isAcceptedPhoto(file('trick.heic', 'text/plain'))).toBe(false);
    expect(isHeic(file('IMG_0001.HEIC', ''))).toBe(true);
    expect(isHeic(file('a.heif', 'image/heif'))).toBe(true);
    expect(isHeic(file('a.jpg', 'image/jpeg'))).toBe(false);
  });

  it('adds only the valid files, and names each refused file and its rule', () => {
    const files = [
      file('a.jpg', 'image/jpeg'),
      file('b.pdf', 'application/pdf'),
      file('c.png', 'image/png'),
      file('big.jpg', 'image/jpeg', 12.4 * MB),
      file('d.heic', ''),
    ];
    const { accepted, refused, note } = selectFiles(0, files);
    expect(accepted.map((f) => f.name)).toEqual(['a.jpg', 'c.png', 'd.heic']);
    expect(refused).toEqual([
      { name: 'b.pdf', reason: 'b.pdf is not a photo. Use JPG, PNG or HEIC.' },
      { name: 'big.jpg', reason: 'big.jpg is 12.4 MB; the limit is 10 MB.' },
    ]);
    expect(note).toBeNull();
    expect(selectFiles(0, [file('a.jpg', 'image/jpeg'), file('c.png', 'image/png')])).toMatchObject({
      refused: [],
      note: null,
    });
    expect(selectFiles(0, [file('a.jpg', 'image/jpeg'), file('e.jpg', 'image/jpeg', 0)]).refused).toEqual([
      { name: 'e.jpg', reason: 'e.jpg is empty.' },
    ]);
  });

  it('refuses a file whose bytes are no photo (a PDF renamed .jpg), whatever its name says', () => {
    const renamed = file('scan.jpg', 'image/jpeg');
    const photo = file('me.jpg', 'image/jpeg');
    const { accepted, refused } = selectFiles(0, [renamed, photo], (f) => f !== renamed);
    expect(accepted).toEqual([photo]);
    expect(refused.map((r) => r.reason)).toEqual(['scan.jpg is not a photo. Use JPG, PNG or HEIC.']);
  });

  it('says a size over the limit rounded up, never as the limit itself', () => {
    expect(formatMegabytes(12.4 * MB)).toBe('12.4 MB');
    expect(formatMegabytes(MAX_FILE_BYTES + 1)).toBe('10.1 MB');
    expect(formatMegabytes(11 * MB)).toBe('11 MB');
    expect(refusalOf(file('x.jpg', 'image/jpeg', MAX_FILE_BYTES))).toBeNull();
  });

  it("none valid → 'Please upload valid image files (max 10MB each)', naming each file", () => {
    expect(
      selectFiles(0, [file('a.pdf', 'application/pdf'), file('big.jpg', 'image/jpeg', 10 * MB + 1)]),
    ).toEqual({
      accepted: [],
      refused: [
        { name: 'a.pdf', reason: 'a.pdf is not a photo. Use JPG, PNG or HEIC.' },
        { name: 'big.jpg', reason: 'big.jpg is 10.1 MB; the limit is 10 MB.' },
      ],
      note: 'Please upload valid image files (max 10MB each)',
    });
    expect(selectFiles(0, [file('x.txt', 'text/plain')]).note).toBe(
      'Please upload valid image files (max 10MB each)',
    );
  });

  it("caps the total at 10 with 'Maximum 10 files allowed. Some files were not added.', naming what it cut", () => {
    const twelve = Array.from({ length: 12 }, (_, i) => file(`p${i}.jpg`, 'image/jpeg'));
    const first = selectFiles(0, twelve);
    expect(first.accepted).toHaveLength(10);
    expect(first.accepted[0]?.name).toBe('p0.jpg');
    expect(first.refused).toEqual([
      { name: 'p10.jpg', reason: 'p10.jpg was not added: the limit is 10 photos.' },
      { name: 'p11.jpg', reason: 'p11.jpg was not added: the limit is 10 photos.' },
    ]);
    expect(first.note).toBe('Maximum 10 files allowed. Some files were not added.');

    // Photos already there count: 8 + 5 valid → 2 added.
    const more = selectFiles(8, twelve.slice(0, 5));
    expect(more.accepted.map((f) => f.name)).toEqual(['p0.jpg', 'p1.jpg']);
    expect(more.refused.map((r) => r.name)).toEqual(['p2.jpg', 'p3.jpg', 'p4.jpg']);

    // Already full: nothing added, the same sentence.
    expect(selectFiles(10, [file('x.jpg', 'image/jpeg')])).toEqual({
      accepted: [],
      refused: [{ name: 'x.jpg', reason: 'x.jpg was not added: the limit is 10 photos.' }],
      note: 'Maximum 10 files allowed. Some files were not added.',
    });

    // Exactly filling the cap leaves no sentence, and invalid files do not use up the room.
    const exact = selectFiles(7, [...twelve.slice(0, 3), file('a.pdf', 'application/pdf')]);
    expect(exact.accepted).toHaveLength(3);
    expect(exact).toMatchObject({
      refused: [{ name: 'a.pdf', reason: 'a.pdf is not a photo. Use JPG, PNG or HEIC.' }],
      note: null,
    });
  });

  it('restores the order the user chose after react-dropzone split accepted and refused files', () => {
    const chosen = [file('1.jpg', 'image/jpeg'), file('2.heic', ''), file('3.jpg', 'image/jpeg')];
    const [one, two, three] = chosen as [FileLike, FileLike, FileLike];
    expect(inChosenOrder([one, three, two], chosen)).toEqual([one, two, three]);
    // A copy with the same name, size and date is the same file.
    expect(inChosenOrder([{ ...three }, one], chosen).map((f) => f.name)).toEqual(['1.jpg', '3.jpg']);
    expect(inChosenOrder([three, one], undefined)).toEqual([three, one]);
  });
});

describe('step 4 status text by percent (docs/product-spec.md §2)', () => {
  it.each([
    [0, 'Analyzing your photos...'],
    [5, 'Analyzing your photos...'],
    [29, 'Analyzing your photos...'],
    [29.9, 'Analyzing your photos...'],
    [30, 'Creating professional headshots...'],
    [45, 'Creating professional headshots...'],
    [89, 'Creating professional headshots...'],
    [89.99, 'Creating professional headshots...'],
    [90, 'Almost done...'],
    [93, 'Almost done...'],
    [100, 'Almost done...'],
  ])('%s%% → %s', (percent, text) => {
    expect(progressStatusText(percent)).toBe(text);
  });
});

describe('step 3 generate button and credits notice (docs/product-spec.md §2)', () => {
  it('6 credits and a background: enabled, no notice', () => {
    expect(generateControls({ credits: 6, hasBackground: true, generating: false })).toEqual({
      label: 'Generate Headshots (6 credits)',
      disabled: false,
      lowCredits: false,
      notice: null,
    });
    expect(generateControls({ credits: 60, hasBackground: true, generating: false }).disabled).toBe(false);
  });

  it('high resolution: 12 credits; 6-11 credits is too few, with its own notice (the card is not orange)', () => {
    expect(
      generateControls({ credits: 12, hasBackground: true, generating: false, highResolution: true }),
    ).toEqual({ label: 'Generate Headshots (12 credits)', disabled: false, lowCredits: false, notice: null });
    expect(
      generateControls({ credits: 8, hasBackground: true, generating: false, highResolution: true }),
    ).toEqual({
      label: 'Insufficient Credits',
      disabled: true,
      lowCredits: false,
      notice: 'You need 12 credits to generate high-resolution headshots, but you only have 8.',
    });
  });

  it('disabled without a background', () => {
    expect(generateControls({ credits: 6, hasBackground: false, generating: false })).toMatchObject({
      label: 'Generate Headshots (6 credits)',
      disabled: true,
    });
  });

  it("'Generating...' and disabled while running", () => {
    expect(generateControls({ credits: 6, hasBackground: true, generating: true })).toMatchObject({
      label: 'Generating...',
      disabled: true,
    });
  });

  it.each([0, 1, 5])(
    "%s credits: 'Insufficient Credits', disabled, orange card and the notice",
    (credits) => {
      expect(generateControls({ credits, hasBackground: true, generating: false })).toEqual({
        label: 'Insufficient Credits',
        disabled: true,
        lowCredits: true,
        notice: `You need 6 credits to generate headshots, but you only have ${credits}.`,
      });
    },
  );

  it('an unknown balance (still loading) does not block: the server checks it', () => {
    expect(generateControls({ credits: undefined, hasBackground: true, generating: false })).toEqual({
      label: 'Generate Headshots (6 credits)',
      disabled: false,
      lowCredits: false,
      notice: null,
    });
  });

  it('the toast for too few credits', () => {
    expect(GENERATOR_TEXT.insufficientToast(6, 4)).toBe(
      'Insufficient credits! You need 6 credits but only have 4.',
    );
  });
});

describe('captions and image sizes', () => {
  it('turns hyphens into spaces', () => {
    expect(captionOf('business-casual')).toBe('business casual');
    expect(captionOf('office')).toBe('office');
  });

  it('downscales to at most 2048 px on the long edge, never enlarging', () => {
    expect(fitWithin(4032, 3024)).toEqual({ width: 2048, height: 1536 });
    expect(fitWithin(3024, 4032)).toEqual({ width: 1536, height: 2048 });
    expect(fitWithin(1200, 800)).toEqual({ width: 1200, height: 800 });
    expect(fitWithin(2048, 2048)).toEqual({ width: 2048, height: 2048 });
  });
});

describe('polling keeps the URLs of headshots already shown', () => {
  const headshot = (id: string, sig: string): Headshot =>
    headshotOf(0, {
      id,
      thumbnailUrl: `https://s3/t/${id}?sig=${sig}`,
      imageUrl: `https://s3/i/${id}?sig=${sig}`,
      downloadUrl: `https://s3/d/${id}?sig=${sig}`,
    });
  const generation = (headshots: Headshot[], urlsExpireAt: string): Generation =>
    generationOf({ id: 'g1', headshots, urlsExpireAt });
  const now = Date.parse('2026-01-01T00:00:00.000Z');

  it('keeps old URLs for known headshots and takes new ones for new headshots', () => {
    const previous = generation([headshot('a', 'old')], '2026-01-01T00:15:00.000Z');
    const next = generation([headshot('a', 'new'), headshot('b', 'new')], '2026-01-01T00:15:02.000Z');
    const merged = keepHeadshotUrls(previous, next, now);
    expect(merged.headshots[0]?.thumbnailUrl).toBe('https://s3/t/a?sig=old');
    expect(merged.headshots[1]?.thumbnailUrl).toBe('https://s3/t/b?sig=new');
    expect(merged.urlsExpireAt).toBe('2026-01-01T00:15:00.000Z');
  });

  it('takes fresh URLs once the old ones are about to expire', () => {
    const previous = generation([headshot('a', 'old')], '2026-01-01T00:00:30.000Z');
    const next = generation([headshot('a', 'new')], '2026-01-01T00:15:00.000Z');
    expect(keepHeadshotUrls(previous, next, now)).toBe(next);
    expect(keepHeadshotUrls(undefined, next, now)).toBe(next);
  });
});

describe('polling while in line', () => {
  it('backs off from 1.5 s by a quarter of the time spent waiting, up to 10 s', () => {
    expect(pollIntervalMs(0)).toBe(1_500);
    expect(pollIntervalMs(10_000)).toBe(4_000);
    expect(pollIntervalMs(60_000)).toBe(10_000);
  });

  it('words the place in line', () => {
    expect(GENERATOR_TEXT.inLine(1, 20)).toBe("You're in line — 1 generation ahead of you, about 1 minute");
    expect(GENERATOR_TEXT.inLine(4, 301)).toBe(
      "You're in line — 4 generations ahead of you, about 6 minutes",
    );
  });
});

describe('step 3: generate button, credits card and notice', () => {
  function renderStep3(props: Partial<Parameters<typeof BackgroundStep>[0]> = {}) {
    const onGenerate = vi.fn();
    renderAt('/generator', {
      element: (
        <BackgroundStep
          value="office"
          onChange={() => {}}
          style="professional"
          photoCount={5}
          credits={6}
          generating={false}
          onGenerate={onGenerate}
          {...props}
        />
      ),
    });
    return onGenerate;
  }
  const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

  it('shows the four backgrounds and an enabled generate button with 6 credits', () => {
    const onGenerate = renderStep3();
    for (const [title, description] of [
      ['Office', 'Professional office setting'],
      ['Studio', 'Clean studio background'],
      ['Outdoor', 'Natural outdoor setting'],
      ['Gradient', 'Modern gradient background'],
    ]) {
      const radio = screen.getByRole('radio', { name: title });
      expect(document.getElementById(radio.getAttribute('aria-describedby')!)?.textContent).toBe(description);
    }
    expect(button('Generate Headshots (6 credits)').disabled).toBe(false);
    expect(screen.queryByText('Running low on credits!')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('credits-card').dataset.low).toBeUndefined();
    fireEvent.click(button('Generate Headshots (6 credits)'));
    expect(onGenerate).toHaveBeenCalledOnce();
  });

  it('is disabled without a background', () => {
    renderStep3({ value: null });
    expect(button('Generate Headshots (6 credits)').disabled).toBe(true);
  });

  it("reads 'Generating...' and is disabled while running", () => {
    renderStep3({ generating: true });
    expect(button('Generating...').disabled).toBe(true);
  });

  it("under 6 credits: 'Insufficient Credits', the orange card with Buy More and the notice", () => {
    renderStep3({ credits: 4 });
    expect(button('Insufficient Credits').disabled).toBe(true);
    const card = screen.getByTestId('credits-card');
    expect(card.dataset.low).toBe('true');
    expect(within(card).getByText('Running low on credits!')).toBeTruthy();
    expect(within(card).getByText('4 credits')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Buy More' }).getAttribute('href')).toBe('/pricing');
    const notice = screen.getByRole('alert');
    expect(
      within(notice).getByText('You need 6 credits to generate headshots, but you only have 4.'),
    ).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'Buy More Credits' }).getAttribute('href')).toBe(
      '/pricing',
    );
  });

  it("at 0 credits says 'No credits left', not 'Running low on credits!', with Buy More", () => {
    renderStep3({ credits: 0 });
    const card = screen.getByTestId('credits-card');
    expect(within(card).getByText('No credits left')).toBeTruthy();
    expect(within(card).queryByText('Running low on credits!')).toBeNull();
    expect(within(card).getByRole('link', { name: 'Buy More' }).getAttribute('href')).toBe('/pricing');
  });
});
