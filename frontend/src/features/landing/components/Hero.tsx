import { ArrowRight, Check, Clock, Sparkles } from 'lucide-react';
import { CREDITS_PER_HEADSHOT, SIGNUP_BONUS_CREDITS } from '../../../../../functions/domain/credits';
import { CREDIT_PACKS } from '../../../../../functions/domain/packs';
import { MarkedList } from '../../../components/ui/MarkedList';
import { generationTime } from '../../../lib/generation-time';
import { SAMPLE_HEADSHOTS, SAMPLE_SELFIES, SAMPLES_NOTE } from '../utils/content';
import { GetStartedButton } from './GetStartedButton';
import { HeroFacts } from './HeroFacts';
import { SampleImage } from './SampleImage';

// The largest pack's credits at one credit a headshot (functions/domain/packs.ts, credits.ts): high resolution costs
// more credits a headshot, so "in high resolution" is not promised here.
const LARGEST_PACK_HEADSHOTS =
  Math.max(...CREDIT_PACKS.map((pack) => pack.credits)) / CREDITS_PER_HEADSHOT.standard;

const HIGHLIGHTS = [
  `Up to ${LARGEST_PACK_HEADSHOTS} headshots in one pack`,
  // No fixed duration: the real image service's time is unmeasured (lib/generation-time.ts).
  generationTime(),
  'Commercial rights included',
];

/** The hero: headline, promise, the main call to action and the before/after illustration. */
export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_40rem_at_85%_-10%,var(--color-brand-100),transparent_70%),radial-gradient(40rem_30rem_at_-10%_10%,var(--color-sky-50),transparent_70%)]"
      />
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 pt-12 pb-16 sm:px-6 sm:pt-20 sm:pb-24 lg:grid-cols-[1.05fr_1fr] lg:gap-16 lg:px-8">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-brand-700 shadow-sm ring-1 ring-brand-200">
            <Sparkles aria-hidden="true" className="size-4" />
            New users get {SIGNUP_BONUS_CREDITS} free credits
          </p>
          <h1
            id="hero-title"
            className="mt-6 font-display text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl"
          >
            Professional headshots from your selfies, <span className="text-brand-600">made by AI</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg text-pretty text-slate-600">
            Upload a few everyday photos and get studio-quality AI headshots for LinkedIn, résumés and
            professional profiles. No photographer, no studio booking, no waiting for weeks.
          </p>
          <div className="mt-8 flex flex-col gap-4 sm:flex-row sm:items-center">
            <GetStartedButton size="lg" className="w-full sm:w-auto">
              Create your headshots now
              <ArrowRight aria-hidden="true" className="size-5" />
            </GetStartedButton>
            <p className="text-center text-sm text-slate-600 sm:text-left">
              One-time credit packs.
              <br className="hidden sm:inline" /> No subscription.
            </p>
          </div>
          <MarkedList
            items={HIGHLIGHTS}
            marker={<Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />}
            className="mt-8 flex flex-col gap-3 text-sm font-medium text-slate-700 sm:flex-row sm:flex-wrap sm:gap-x-6"
            itemClassName="flex items-start gap-2"
          />
          <HeroFacts className="mt-10 border-t border-slate-200 pt-8" />
        </div>
        <HeroVisual />
      </div>
    </section>
  );
}

/** The hero cards' picks: different people and backdrops side by side. */
const HERO_SHOTS = ['navy-studio', 'warm-office', 'charcoal-mono', 'cream-studio'].map((key) => {
  const shot = SAMPLE_HEADSHOTS.find((s) => s.src.includes(key));
  if (!shot) throw new Error(`No sample headshot named ${key}`);
  return shot;
});

/** Before/after: three casual photos in, a grid of finished headshots out. */
function HeroVisual() {
  return (
    <figure className="relative mx-auto w-full max-w-md lg:max-w-none">
      <div className="rounded-[2rem] bg-white/80 p-4 pb-9 shadow-2xl ring-1 shadow-brand-900/10 ring-slate-200 backdrop-blur sm:p-6 sm:pb-10">
        <div className="flex items-center justify-between gap-3">
          <div className="flex items-center gap-3">
            <ul className="flex -space-x-3">
              {SAMPLE_SELFIES.map((selfie) => (
                <li key={selfie.src}>
                  <SampleImage
                    sample={selfie}
                    size={160}
                    className="size-11 rounded-full object-cover ring-4 ring-white sm:size-12"
                  />
                </li>
              ))}
            </ul>
            <p className="text-sm leading-tight font-semibold whitespace-nowrap text-slate-900">
              Your photos
              <span className="block text-xs font-normal text-slate-600">Everyday selfies</span>
            </p>
          </div>
          <p className="hidden items-center gap-1.5 rounded-full bg-brand-50 min-[400px]:inline-flex px-3 py-1.5 text-xs font-semibold whitespace-nowrap text-brand-700">
            <ArrowRight aria-hidden="true" className="size-3.5" />
            AI headshots
          </p>
        </div>
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:mt-6 sm:gap-4">
          {HERO_SHOTS.map((shot) => (
            <li key={shot.src} className="relative overflow-hidden rounded-2xl bg-slate-100">
              <SampleImage
                sample={shot}
                size={384}
                fetchPriority="high"
                className="aspect-square w-full object-cover"
              />
              <span className="absolute bottom-2 left-2 rounded-full bg-white/90 px-2.5 py-1 text-xs font-semibold text-slate-800 shadow-sm">
                {shot.label}
              </span>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-center text-xs text-slate-600">{SAMPLES_NOTE}</p>
      </div>
      <figcaption className="absolute -bottom-5 left-1/2 inline-flex -translate-x-1/2 items-center gap-2 rounded-full bg-slate-900 px-4 py-2 text-sm font-medium whitespace-nowrap text-white shadow-lg">
        <Clock aria-hidden="true" className="size-4 text-amber-300" />
        {/* No duration here either: nothing measured backs one (lib/generation-time.ts). */}
        From selfies to headshots
      </figcaption>
    </figure>
  );
}
