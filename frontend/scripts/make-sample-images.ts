/**
 * Builds the landing page's sample headshots from the public-domain fixture photos
 * (test/fixtures/photos, White House photographs; see its README).
 *
 *   npx tsx frontend/scripts/make-sample-images.ts [photosDir]
 *
 * Output goes to frontend/public/images/ and is committed: the site must not depend on a CDN or on this script
 * running at build time. The fixtures folder is only ever read.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const PHOTOS_DIR = process.argv[2] ?? 'test/fixtures/photos';
const OUT_DIR = fileURLToPath(new URL('../public/images/', import.meta.url));
const SIZE = 384;
const SELFIE_SIZE = 160;

/** A region of the source photo as fractions of its upright width/height. */
interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A colour grade: a 3×3 channel-mixing matrix plus brightness/saturation tweaks. */
interface Grade {
  recomb: [[number, number, number], [number, number, number], [number, number, number]];
  brightness: number;
  saturation: number;
  greyscale?: boolean;
}

/** A background treatment: the blurred surroundings are washed with one or two colours. */
interface Backdrop {
  from: string;
  to: string;
  strength: number;
}

interface Variant {
  name: string;
  source: string;
  /**
   * A head-and-shoulders box, the face roughly centred, at most a little taller than wide: sharp's attention
   * strategy picks the final square inside it, so the crop follows the face rather than a fixed offset.
   */
  region: Region;
  grade: Grade;
  backdrop: Backdrop;
  /** Mirror the photo, so a source used twice does not look like the same picture. */
  flop?: boolean;
  /** Head ellipse of the subject mask as fractions of the square; the default suits a head filling ~60% width. */
  head?: HeadEllipse;
}

interface HeadEllipse {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
}

const DEFAULT_HEAD: HeadEllipse = { cx: 0.5, cy: 0.4, rx: 0.31, ry: 0.4 };

const NEUTRAL: Grade['recomb'] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const WARM: Grade['recomb'] = [
  [1.08, 0.04, 0],
  [0.02, 1.0, 0],
  [0, 0.02, 0.88],
];
const COOL: Grade['recomb'] = [
  [0.94, 0, 0.02],
  [0, 1.0, 0.02],
  [0.02, 0.04, 1.08],
];
const FRESH: Grade['recomb'] = [
  [0.98, 0.02, 0],
  [0.02, 1.04, 0],
  [0, 0.02, 0.96],
];

const VARIANTS: Variant[] = [
  {
    name: 'headshot-navy-studio',
    source: 'obama.jpg',
    region: { left: 0.16, top: 0.0, width: 0.74, height: 0.62 },
    grade: { recomb: COOL, brightness: 1.03, saturation: 0.95 },
    backdrop: { from: '#1e2a4a', to: '#0b1328', strength: 0.82 },
  },
  {
    name: 'headshot-warm-office',
    source: 'biden.jpg',
    region: { left: 0.16, top: 0.0, width: 0.85, height: 0.375 },
    grade: { recomb: WARM, brightness: 1.04, saturation: 1.02 },
    backdrop: { from: '#c89a64', to: '#6b4a2b', strength: 0.7 },
  },
  {
    name: 'headshot-soft-gradient',
    source: 'obama2.jpg',
    region: { left: 0.0, top: 0.04, width: 1.0, height: 0.58 },
    grade: { recomb: NEUTRAL, brightness: 1.05, saturation: 0.92 },
    backdrop: { from: '#c7b8f5', to: '#f3c6d8', strength: 0.78 },
  },
  {
    name: 'headshot-outdoor-green',
    source: 'obama-rotated.jpg',
    region: { left: 0.2, top: 0.0, width: 0.66, height: 0.56 },
    grade: { recomb: FRESH, brightness: 1.05, saturation: 1.05 },
    backdrop: { from: '#6f9a5b', to: '#2f5a34', strength: 0.72 },
  },
  {
    name: 'headshot-charcoal-mono',
    source: 'obama-720p.jpg',
    region: { left: 0.28, top: 0.0, width: 0.44, height: 0.86 },
    grade: { recomb: NEUTRAL, brightness: 1.04, saturation: 1, greyscale: true },
    backdrop: { from: '#4b4f57', to: '#1c1e22', strength: 0.8 },
  },
  {
    name: 'headshot-slate-blue',
    source: 'obama.jpg',
    region: { left: 0.22, top: 0.0, width: 0.62, height: 0.52 },
    grade: { recomb: NEUTRAL, brightness: 1.02, saturation: 0.9 },
    backdrop: { from: '#7d97b8', to: '#3f5676', strength: 0.78 },
  },
  {
    name: 'headshot-cream-studio',
    source: 'biden.jpg',
    region: { left: 0.25, top: 0.02, width: 0.68, height: 0.31 },
    grade: { recomb: WARM, brightness: 1.06, saturation: 0.9 },
    backdrop: { from: '#efe4d2', to: '#cdb99a', strength: 0.8 },
  },
  {
    name: 'headshot-teal-modern',
    source: 'biden.jpg',
    region: { left: 0.2, top: 0.0, width: 0.8, height: 0.352 },
    flop: true,
    grade: { recomb: COOL, brightness: 1.04, saturation: 1.0 },
    backdrop: { from: '#4fb3b0', to: '#1d5f74', strength: 0.86 },
  },
];

/** The "before" pictures of the hero: the user's casual photos, ungraded. */
const SELFIES: { name: string; source: string; region: Region }[] = [
  { name: 'selfie-1', source: 'obama-720p.jpg', region: { left: 0.2, top: 0.0, width: 0.6, height: 1.0 } },
  { name: 'selfie-2', source: 'obama2.jpg', region: { left: 0.0, top: 0.0, width: 1.0, height: 0.8 } },
  { name: 'selfie-3', source: 'obama3.jpg', region: { left: 0.1, top: 0.0, width: 0.8, height: 0.6 } },
];

async function upright(file: string): Promise<{ buffer: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(join(PHOTOS_DIR, file)).rotate().toBuffer({ resolveWithObject: true });
  return { buffer: data, width: info.width, height: info.height };
}

function extractBox(region: Region, width: number, height: number) {
  const left = Math.round(region.left * width);
  const top = Math.round(region.top * height);
  return {
    left,
    top,
    width: Math.min(Math.round(region.width * width), width - left),
    height: Math.min(Math.round(region.height * height), height - top),
  };
}

/**
 * Where the subject usually is in a head-and-shoulders crop: an ellipse for the head over a band for the shoulders,
 * blurred so the hand-off to the backdrop has no visible edge.
 */
async function subjectMask(size: number, head: HeadEllipse): Promise<Buffer> {
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
      <rect width="100%" height="100%" fill="#000"/>
      <ellipse cx="${size * head.cx}" cy="${size * head.cy}" rx="${size * head.rx}" ry="${size * head.ry}" fill="#fff"/>
      <path d="M ${size * 0.02} ${size} C ${size * 0.04} ${size * 0.74}, ${size * 0.2} ${size * 0.66}, ${size * 0.5}
        ${size * 0.64} C ${size * 0.8} ${size * 0.66}, ${size * 0.96} ${size * 0.74}, ${size * 0.98} ${size} Z"
        fill="#fff"/>
    </svg>`,
  );
  // The mask's luminance becomes the subject's alpha channel.
  return sharp(svg)
    .blur(size / 28)
    .greyscale()
    .raw()
    .toBuffer();
}

function backdropWash(size: number, b: Backdrop): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
      <defs>
        <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0%" stop-color="${b.from}"/>
          <stop offset="100%" stop-color="${b.to}"/>
        </linearGradient>
      </defs>
      <rect width="100%" height="100%" fill="url(#g)" opacity="${b.strength}"/>
    </svg>`,
  );
}

async function makeHeadshot(v: Variant): Promise<string> {
  const src = await upright(v.source);
  let pipeline = sharp(src.buffer)
    .extract(extractBox(v.region, src.width, src.height))
    .flop(v.flop ?? false)
    .resize(SIZE, SIZE, { fit: 'cover', position: sharp.strategy.attention })
    .recomb(v.grade.recomb)
    .modulate({ brightness: v.grade.brightness, saturation: v.grade.saturation });
  if (v.grade.greyscale) pipeline = pipeline.greyscale().toColourspace('srgb');
  const graded = await pipeline.png().toBuffer();

  // A portrait-lens look without segmentation: a blurred, colour-washed copy behind the sharp, feathered subject.
  const backdrop = await sharp(graded)
    .blur(12)
    .composite([{ input: backdropWash(SIZE, v.backdrop) }])
    .png()
    .toBuffer();
  const mask = await subjectMask(SIZE, v.head ?? DEFAULT_HEAD);
  const subject = await sharp(graded)
    .joinChannel(mask, { raw: { width: SIZE, height: SIZE, channels: 1 } })
    .png()
    .toBuffer();

  const out = join(OUT_DIR, `${v.name}.webp`);
  await sharp(backdrop)
    .composite([{ input: subject }])
    .sharpen({ sigma: 0.6 })
    .webp({ quality: 82, effort: 6 })
    .toFile(out);
  return out;
}

async function makeSelfie(s: (typeof SELFIES)[number]): Promise<string> {
  const src = await upright(s.source);
  const out = join(OUT_DIR, `${s.name}.webp`);
  await sharp(src.buffer)
    .extract(extractBox(s.region, src.width, src.height))
    .resize(SELFIE_SIZE, SELFIE_SIZE, { fit: 'cover', position: sharp.strategy.attention })
    .modulate({ brightness: 0.97, saturation: 0.85 })
    .webp({ quality: 76, effort: 6 })
    .toFile(out);
  return out;
}

async function main(): Promise<void> {
  await mkdir(OUT_DIR, { recursive: true });
  for (const f of await readdir(OUT_DIR)) {
    if (/^(headshot|selfie)-.*\.webp$/.test(f)) await rm(join(OUT_DIR, f));
  }
  const files = [
    ...(await Promise.all(VARIANTS.map(makeHeadshot))),
    ...(await Promise.all(SELFIES.map(makeSelfie))),
  ];
  let total = 0;
  for (const f of files) {
    const { size } = await stat(f);
    total += size;
    console.log(`${(size / 1024).toFixed(1).padStart(6)} KB  ${f}`);
  }
  console.log(`${(total / 1024).toFixed(1).padStart(6)} KB  total`);
}

await main();
