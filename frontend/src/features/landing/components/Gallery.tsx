import { Pause, Play } from 'lucide-react';
import { SAMPLE_HEADSHOTS, SAMPLES_NOTE, type SampleHeadshot } from '../utils/content';
import { LandingSection } from './LandingSection';
import { SampleImage } from './SampleImage';
import { SectionHeading } from './SectionHeading';

/**
 * An endlessly scrolling strip of sample headshots. The track holds the list twice and slides by half its width,
 * so the loop has no seam; the copy is hidden from assistive technology. With reduced motion the strip stands
 * still and scrolls by hand instead. Hovering, focusing the strip or the pause switch stops it (WCAG 2.2.2). The switch
 * is a checkbox the stylesheet reads (`:has(:checked)`), so it works on the page rendered at build time before any
 * script has run (issue 27), and needs no state of the app.
 */
export function Gallery() {
  return (
    <LandingSection
      titleId="gallery-title"
      column={false}
      className="group/gallery bg-slate-50 py-16 [--rendered-height:636px] sm:py-24 sm:[--rendered-height:708px]"
    >
      <div className="mx-auto max-w-7xl px-4 text-center sm:px-6 lg:px-8">
        <SectionHeading
          id="gallery-title"
          eyebrow="Sample headshots"
          title="One set of selfies, every look you need"
          introClassName="mx-auto max-w-2xl"
        >
          Studio, office, outdoor or gradient backgrounds in professional, business casual or creative styles.{' '}
          {SAMPLES_NOTE}.
        </SectionHeading>
      </div>
      <div
        data-testid="gallery"
        role="region"
        aria-label="Sample headshots, scrolling"
        // Focusable so keyboard users can pause the strip, and scroll it when reduced motion stops the animation.
        tabIndex={0}
        className="group relative mt-12 overflow-hidden focus-visible:outline-offset-4 motion-reduce:overflow-x-auto [mask-image:linear-gradient(to_right,transparent,black_6%,black_94%,transparent)]"
      >
        <div className="flex w-max animate-marquee group-focus-within:[animation-play-state:paused] group-hover:[animation-play-state:paused] group-has-[:checked]/gallery:[animation-play-state:paused] motion-reduce:animate-none">
          <GalleryTrack shots={SAMPLE_HEADSHOTS} />
          <GalleryTrack shots={SAMPLE_HEADSHOTS} duplicate />
        </div>
      </div>
      <div className="mx-auto mt-6 flex max-w-7xl justify-end px-4 sm:px-6 lg:px-8 motion-reduce:hidden">
        {/* A switch that reads the same in both states (its name is its visible text); on, it is highlighted. */}
        <label className="inline-flex cursor-pointer items-center gap-2 rounded-full px-3 py-1.5 text-sm font-medium text-slate-600 transition select-none hover:bg-slate-200/60 hover:text-slate-900 has-[:checked]:bg-slate-200 has-[:checked]:text-slate-900 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600">
          <input type="checkbox" role="switch" className="peer sr-only" />
          <Pause aria-hidden="true" className="size-4 peer-checked:hidden" />
          <Play aria-hidden="true" className="hidden size-4 peer-checked:block" />
          Pause gallery
        </label>
      </div>
    </LandingSection>
  );
}

function GalleryTrack({
  shots,
  duplicate = false,
}: {
  shots: readonly SampleHeadshot[];
  duplicate?: boolean;
}) {
  return (
    <ul aria-hidden={duplicate || undefined} className="flex shrink-0 gap-4 pr-4 sm:gap-6 sm:pr-6">
      {shots.map((shot) => (
        <li key={shot.src} className="w-40 shrink-0 sm:w-52 lg:w-60">
          <figure>
            <SampleImage
              sample={shot}
              size={384}
              loading="lazy"
              decoding="async"
              className="aspect-square w-full rounded-2xl object-cover shadow-md ring-1 ring-slate-900/5"
            />
            <figcaption className="mt-3 text-sm font-medium text-slate-700">{shot.label}</figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}
