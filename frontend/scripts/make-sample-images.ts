/**
 * Draws the landing page's sample headshots (and the "how it works" selfies) as illustrated portraits: flat vector
 * people made up here from shapes and colours, rendered to WebP with sharp. They show the look of the product's
 * results — head-and-shoulders framing, styles, backdrops — without showing any real person, so the sales page
 * implies no endorsement.
 *
 *   npx tsx frontend/scripts/make-sample-images.ts
 *
 * Output goes to frontend/public/images/ and is committed: the site must not depend on a CDN or on this script
 * running at build time. Same names and sizes as the page's image slots (384 px headshots, 160 px selfies).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const OUT_DIR = fileURLToPath(new URL('../public/images/', import.meta.url));

/** One made-up person and how they are pictured. */
interface Portrait {
  name: string;
  /** Backdrop: two colours of a gradient, and an optional scene ('office' windows, 'outdoor' foliage). */
  backdrop: { from: string; to: string; scene?: 'office' | 'outdoor' | 'studio' };
  skin: string;
  hair: { colour: string; style: 'short' | 'long' | 'bun' | 'curly' | 'bald' | 'bob' };
  /** Jacket and shirt colours; `open` draws a casual open collar instead of a tie. */
  outfit: { jacket: string; shirt: string; tie?: string; open?: boolean };
  /** Turns the whole picture to greyscale (the "mono" sample). */
  mono?: boolean;
  glasses?: boolean;
  beard?: boolean;
}

const PORTRAITS: Portrait[] = [
  {
    name: 'headshot-navy-studio',
    backdrop: { from: '#dfe7f5', to: '#9fb3d6', scene: 'studio' },
    skin: '#e8b894',
    hair: { colour: '#3b2a20', style: 'short' },
    outfit: { jacket: '#1e2f55', shirt: '#f4f6fb', tie: '#7a1f2b' },
  },
  {
    name: 'headshot-warm-office',
    backdrop: { from: '#f3e3cf', to: '#c9a67f', scene: 'office' },
    skin: '#8d5a3b',
    hair: { colour: '#1d1512', style: 'curly' },
    outfit: { jacket: '#6b4b3a', shirt: '#f7efe4', open: true },
  },
  {
    name: 'headshot-soft-gradient',
    backdrop: { from: '#f6d5e5', to: '#b9c6f2' },
    skin: '#f1c7a8',
    hair: { colour: '#c98a3c', style: 'long' },
    outfit: { jacket: '#2f3b57', shirt: '#eef1f8', open: true },
  },
  {
    name: 'headshot-outdoor-green',
    backdrop: { from: '#d9ecd2', to: '#7fae79', scene: 'outdoor' },
    skin: '#c68a62',
    hair: { colour: '#2a1d16', style: 'short' },
    outfit: { jacket: '#3d4a3a', shirt: '#f1f3ea', open: true },
    beard: true,
  },
  {
    name: 'headshot-charcoal-mono',
    backdrop: { from: '#e6e6e6', to: '#8f8f8f', scene: 'studio' },
    skin: '#d9a987',
    hair: { colour: '#222222', style: 'bob' },
    outfit: { jacket: '#2b2b2b', shirt: '#f2f2f2', open: true },
    mono: true,
    glasses: true,
  },
  {
    name: 'headshot-cream-studio',
    backdrop: { from: '#fbf4e6', to: '#e4d3b4', scene: 'studio' },
    skin: '#5e3b28',
    hair: { colour: '#111111', style: 'bun' },
    outfit: { jacket: '#8a2f3c', shirt: '#f9f1ea', open: true },
  },
  {
    name: 'headshot-slate-blue',
    backdrop: { from: '#dde6ee', to: '#7f97ad' },
    skin: '#f0c9a9',
    hair: { colour: '#8c8c8c', style: 'bald' },
    outfit: { jacket: '#3a4a5c', shirt: '#ffffff', tie: '#2d5f8a' },
    glasses: true,
    beard: true,
  },
  {
    name: 'headshot-teal-modern',
    backdrop: { from: '#d3f0ec', to: '#5fb3aa', scene: 'office' },
    skin: '#e3a983',
    hair: { colour: '#4a2c1d', style: 'long' },
    outfit: { jacket: '#0f4c4a', shirt: '#f3fbfa', open: true },
  },
];

/**
 * A casual "selfie" for the how-it-works step: the same made-up person each time (the one customer whose photos go
 * in), in a plain top of `top`'s colour against `backdrop`.
 */
function selfie(n: number, backdrop: Portrait['backdrop'], top: string): Portrait {
  return {
    name: `selfie-${n}`,
    backdrop,
    skin: '#e8b894',
    hair: { colour: '#3b2a20', style: 'short' },
    outfit: { jacket: top, shirt: top, open: true },
  };
}

const SELFIES: Portrait[] = [
  selfie(1, { from: '#f2efe9', to: '#cfc6b8' }, '#7a8fa6'),
  selfie(2, { from: '#e3eef7', to: '#a8c1d8', scene: 'outdoor' }, '#c0504d'),
  selfie(3, { from: '#f7ecd9', to: '#d9bf95', scene: 'office' }, '#4d6b4a'),
];

/** Darkens (negative) or lightens a #rrggbb colour by `amount` (-1..1). */
function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const c = (n >> shift) & 0xff;
    const v = amount < 0 ? c * (1 + amount) : c + (255 - c) * amount;
    return Math.round(Math.min(255, Math.max(0, v)))
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

function scene(p: Portrait): string {
  const { scene: kind } = p.backdrop;
  if (kind === 'office') {
    // Soft window panes and a blurred shelf line behind the person.
    return `<g opacity="0.35" filter="url(#blur)">
      <rect x="20" y="40" width="120" height="150" rx="6" fill="#ffffff"/>
      <rect x="250" y="30" width="110" height="170" rx="6" fill="#ffffff"/>
      <rect x="0" y="230" width="384" height="10" fill="${shade(p.backdrop.to, -0.3)}"/>
    </g>`;
  }
  if (kind === 'outdoor') {
    return `<g opacity="0.55" filter="url(#blur)">
      <circle cx="40" cy="90" r="70" fill="${shade(p.backdrop.to, -0.2)}"/>
      <circle cx="330" cy="70" r="80" fill="${shade(p.backdrop.to, -0.25)}"/>
      <circle cx="300" cy="220" r="60" fill="${shade(p.backdrop.to, 0.15)}"/>
      <circle cx="70" cy="240" r="50" fill="${shade(p.backdrop.to, 0.1)}"/>
    </g>`;
  }
  if (kind === 'studio') {
    return `<ellipse cx="192" cy="150" rx="170" ry="150" fill="#ffffff" opacity="0.35" filter="url(#blur)"/>`;
  }
  return '';
}

function hairBack(p: Portrait): string {
  const c = p.hair.colour;
  switch (p.hair.style) {
    case 'long':
      return `<path d="M128 150 Q120 95 192 82 Q264 95 256 150 L268 282 Q230 300 192 296 Q154 300 116 282 Z" fill="${c}"/>`;
    case 'bob':
      return `<path d="M132 150 Q126 92 192 84 Q258 92 252 150 L258 232 Q226 246 192 244 Q158 246 126 232 Z" fill="${c}"/>`;
    case 'bun':
      return `<circle cx="192" cy="78" r="26" fill="${c}"/>`;
    default:
      return '';
  }
}

function hairFront(p: Portrait): string {
  const c = p.hair.colour;
  switch (p.hair.style) {
    case 'short':
      return `<path d="M140 150 Q136 96 192 92 Q250 94 246 150 Q236 120 200 116 Q160 114 140 150 Z" fill="${c}"/>`;
    case 'curly':
      return `<g fill="${c}">${[140, 158, 176, 194, 212, 230, 246]
        .map((x, i) => `<circle cx="${x}" cy="${112 - (i % 2) * 8}" r="20"/>`)
        .join('')}<circle cx="138" cy="138" r="14"/><circle cx="248" cy="138" r="14"/></g>`;
    case 'long':
    case 'bob':
      return `<path d="M140 152 Q140 98 192 94 Q246 98 244 152 Q226 118 192 116 Q160 118 140 152 Z" fill="${c}"/>`;
    case 'bun':
      return `<path d="M140 150 Q140 98 192 96 Q244 98 244 150 Q230 118 192 114 Q154 118 140 150 Z" fill="${c}"/>`;
    case 'bald':
      return `<path d="M142 160 Q140 140 146 132 L150 170 Z M242 160 Q244 140 238 132 L234 170 Z" fill="${c}"/>`;
  }
}

function face(p: Portrait): string {
  const ink = shade(p.skin, -0.65);
  const cheek = shade(p.skin, -0.08);
  const eyes = `<ellipse cx="172" cy="160" rx="5" ry="5.5" fill="${ink}"/><ellipse cx="212" cy="160" rx="5" ry="5.5" fill="${ink}"/>
    <path d="M160 146 Q172 140 182 146" stroke="${shade(p.hair.colour, 0.1)}" stroke-width="4" fill="none" stroke-linecap="round"/>
    <path d="M202 146 Q212 140 224 146" stroke="${shade(p.hair.colour, 0.1)}" stroke-width="4" fill="none" stroke-linecap="round"/>`;
  const nose = `<path d="M192 166 Q188 184 196 188" stroke="${shade(p.skin, -0.25)}" stroke-width="3" fill="none" stroke-linecap="round"/>`;
  const mouth = `<path d="M176 204 Q192 216 208 204" stroke="${shade(p.skin, -0.45)}" stroke-width="4" fill="none" stroke-linecap="round"/>`;
  const blush = `<ellipse cx="160" cy="188" rx="10" ry="6" fill="${cheek}" opacity="0.6"/><ellipse cx="224" cy="188" rx="10" ry="6" fill="${cheek}" opacity="0.6"/>`;
  const beard = p.beard
    ? `<path d="M146 182 Q150 236 192 240 Q234 236 238 182 Q230 214 192 218 Q154 214 146 182 Z" fill="${p.hair.colour}" opacity="0.9"/>`
    : '';
  const glasses = p.glasses
    ? `<g fill="none" stroke="#1f2937" stroke-width="3.5"><rect x="156" y="148" width="32" height="24" rx="8"/><rect x="196" y="148" width="32" height="24" rx="8"/><path d="M188 158 L196 158"/></g>`
    : '';
  return `${blush}${eyes}${nose}${beard}${mouth}${glasses}`;
}

function outfit(p: Portrait): string {
  const { jacket, shirt, tie, open } = p.outfit;
  const body = `<path d="M60 384 Q64 300 130 276 L170 262 L192 300 L214 262 L254 276 Q320 300 324 384 Z" fill="${jacket}"/>`;
  const collar = open
    ? `<path d="M166 262 L192 310 L218 262 L204 256 L192 282 L180 256 Z" fill="${shirt}"/>`
    : `<path d="M170 258 L192 300 L214 258 Z" fill="${shirt}"/>`;
  const tieShape = tie ? `<path d="M186 272 L198 272 L204 340 L192 356 L180 340 Z" fill="${tie}"/>` : '';
  const lapels = `<path d="M170 262 L150 330 L182 300 Z M214 262 L234 330 L202 300 Z" fill="${shade(jacket, -0.18)}"/>`;
  return `${body}${collar}${tieShape}${lapels}`;
}

/** The SVG of one portrait, `size` px square. */
export function portraitSvg(p: Portrait, size: number): string {
  const neck = `<path d="M170 212 L170 262 Q192 280 214 262 L214 212 Z" fill="${shade(p.skin, -0.12)}"/>`;
  const head = `<ellipse cx="192" cy="168" rx="52" ry="64" fill="${p.skin}"/>
    <ellipse cx="140" cy="172" rx="9" ry="14" fill="${shade(p.skin, -0.06)}"/><ellipse cx="244" cy="172" rx="9" ry="14" fill="${shade(p.skin, -0.06)}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 384 384">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0.4" y2="1">
      <stop offset="0" stop-color="${p.backdrop.from}"/><stop offset="1" stop-color="${p.backdrop.to}"/>
    </linearGradient>
    <filter id="blur"><feGaussianBlur stdDeviation="10"/></filter>
    <radialGradient id="light" cx="0.35" cy="0.25" r="0.9">
      <stop offset="0" stop-color="#ffffff" stop-opacity="0.22"/><stop offset="1" stop-color="#000000" stop-opacity="0.12"/>
    </radialGradient>
  </defs>
  <rect width="384" height="384" fill="url(#bg)"/>
  ${scene(p)}
  ${hairBack(p)}
  ${neck}
  ${outfit(p)}
  ${head}
  ${hairFront(p)}
  ${face(p)}
  <rect width="384" height="384" fill="url(#light)"/>
</svg>`;
}

async function render(p: Portrait, size: number): Promise<void> {
  let image = sharp(Buffer.from(portraitSvg(p, size)));
  if (p.mono) image = image.greyscale();
  await image.webp({ quality: 82 }).toFile(join(OUT_DIR, `${p.name}.webp`));
}

/** The wizard's style and background cards reuse the portraits that show each choice best. */
const CARDS: Record<string, string> = {
  'styles/style-professional': 'headshot-navy-studio',
  'styles/style-business-casual': 'headshot-warm-office',
  'styles/style-creative': 'headshot-teal-modern',
  'styles/background-office': 'headshot-warm-office',
  'styles/background-studio': 'headshot-cream-studio',
  'styles/background-outdoor': 'headshot-outdoor-green',
  'styles/background-gradient': 'headshot-soft-gradient',
};

await mkdir(join(OUT_DIR, 'styles'), { recursive: true });
for (const p of PORTRAITS) await render(p, 384);
for (const p of SELFIES) await render(p, 160);
for (const [card, from] of Object.entries(CARDS)) {
  await render({ ...PORTRAITS.find((p) => p.name === from)!, name: card }, 384);
}
console.log(
  `Wrote ${PORTRAITS.length} sample headshots, ${SELFIES.length} selfies and ${Object.keys(CARDS).length} cards to ${OUT_DIR}`,
);
