import sharp from 'sharp';
import type { Background } from '../../domain/styles';

/**
 * The offline provider's backdrop plates, made procedurally (no image files, so no licence to track): each is an
 * SVG scene drawn small, then scaled up and thrown out of focus like a portrait lens at f/2 would, with a little
 * film grain so smooth gradients do not band in the JPEG.
 *
 * - studio: seamless grey paper with a soft pool of light behind the head, falling off to the edges and floor;
 * - gradient: a two-tone gradient with a soft highlight behind the head;
 * - office: a defocused interior — a bright window with mullions, a bookshelf, a plant, ceiling lights;
 * - outdoor: a defocused park — sky, a tree line in several greens, a lawn, sun flecks through leaves.
 *
 * Per slot the palette, the light's position and the scene's side (mirrored) vary.
 */

/** Where the head is in the 1024 px frame (the light pools behind it). */
export interface BackdropFocus {
  x: number;
  y: number;
}

const DRAW = 256;

async function plate(svg: string, side: number, defocus: number, random: () => number): Promise<Buffer> {
  const doc = `<svg xmlns="http://www.w3.org/2000/svg" width="${DRAW}" height="${DRAW}" viewBox="0 0 1024 1024">${svg}</svg>`;
  let small = sharp(Buffer.from(doc)).removeAlpha();
  if (defocus > 0) small = small.blur((defocus * DRAW) / 1024);
  const drawn = await small.raw().toBuffer();
  const scaled = await sharp(drawn, { raw: { width: DRAW, height: DRAW, channels: 3 } })
    .resize(side, side, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  // Film grain: ±3 levels, the same on all channels (luma noise looks like grain, chroma noise like dirt).
  // A clamped view of the same bytes: writing v + n clamps it to 0-255 as Math.max/Math.min would.
  const clamped = new Uint8ClampedArray(scaled.buffer, scaled.byteOffset, scaled.length);
  for (let i = 0, j = 0; i < side * side; i++, j += 3) {
    const n = Math.round((random() - 0.5) * 6);
    clamped[j] = clamped[j]! + n;
    clamped[j + 1] = clamped[j + 1]! + n;
    clamped[j + 2] = clamped[j + 2]! + n;
  }
  return scaled;
}

const pick = <T>(list: readonly T[], slot: number): T => list[slot % list.length]!;

const STUDIO_PAPERS = [
  { light: '#c9ccd0', mid: '#8d9197', dark: '#3c3f44' },
  { light: '#d2cdc6', mid: '#948e86', dark: '#403c38' },
  { light: '#c3c9d1', mid: '#838c97', dark: '#363c44' },
] as const;

function studio(focus: BackdropFocus, slot: number): string {
  const p = pick(STUDIO_PAPERS, slot);
  return `<defs>
<radialGradient id="pool" cx="${focus.x}" cy="${focus.y + 60}" r="760" gradientUnits="userSpaceOnUse">
<stop offset="0" stop-color="${p.light}"/><stop offset="0.45" stop-color="${p.mid}"/><stop offset="1" stop-color="${p.dark}"/></radialGradient>
<linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.28"/></linearGradient>
</defs><rect width="1024" height="1024" fill="url(#pool)"/><rect width="1024" height="1024" fill="url(#floor)"/>`;
}

const GRADIENT_PALETTES = [
  ['#1e3a5f', '#7fa7c9'],
  ['#3b2f4a', '#c08497'],
  ['#21443b', '#8fc1a9'],
  ['#4a3526', '#d4a373'],
  ['#2b2d42', '#8d99ae'],
  ['#3d1f3a', '#e09f7d'],
] as const;

function gradient(focus: BackdropFocus, slot: number, random: () => number): string {
  const [from, to] = pick(GRADIENT_PALETTES, slot);
  const angle = (0.15 + random() * 0.7) * Math.PI;
  const dx = Math.cos(angle) / 2;
  const dy = Math.sin(angle) / 2;
  return `<defs>
<linearGradient id="g" x1="${0.5 - dx}" y1="${0.5 - dy}" x2="${0.5 + dx}" y2="${0.5 + dy}"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>
<radialGradient id="h" cx="${focus.x}" cy="${focus.y}" r="560" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#fff" stop-opacity="0.22"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
</defs><rect width="1024" height="1024" fill="url(#g)"/><rect width="1024" height="1024" fill="url(#h)"/>`;
}

const mirror = (svg: string, flip: boolean) =>
  flip ? `<g transform="translate(1024 0) scale(-1 1)">${svg}</g>` : svg;

const WALLS = ['#d9cfc2', '#cfd3d6', '#d8d2c4', '#c9cfc8'] as const;
const BOOKS = ['#7b3b2e', '#2f4858', '#c8a165', '#5b6d5b', '#8a5a44', '#3e3a5c', '#b9b1a3', '#6c2f3a'];

function office(slot: number, random: () => number): string {
  const wall = pick(WALLS, slot);
  const books: string[] = [];
  for (let shelf = 0; shelf < 4; shelf++) {
    let x = 600;
    while (x < 980) {
      const w = 14 + random() * 22;
      const h = 90 + random() * 50;
      const colour = BOOKS[Math.floor(random() * BOOKS.length)]!;
      books.push(
        `<rect x="${x.toFixed(0)}" y="${(160 + shelf * 170 + (150 - h)).toFixed(0)}" width="${w.toFixed(0)}" height="${h.toFixed(0)}" fill="${colour}"/>`,
      );
      x += w + 3;
    }
  }
  const lights = [170, 512, 850]
    .map((x) => `<circle cx="${x}" cy="40" r="46" fill="#fff8e1" opacity="0.95"/>`)
    .join('');
  const scene = `<rect width="1024" height="1024" fill="${wall}"/>
<rect x="40" y="110" width="400" height="620" fill="#eef4f8"/><rect x="40" y="110" width="400" height="620" fill="#bcd7ea" opacity="0.35"/>
<rect x="232" y="110" width="16" height="620" fill="#8e8a84"/><rect x="40" y="410" width="400" height="14" fill="#8e8a84"/>
<rect x="580" y="140" width="420" height="700" fill="#5a4633"/>${books.join('')}
${[0, 1, 2, 3].map((s) => `<rect x="580" y="${310 + s * 170}" width="420" height="12" fill="#3f3124"/>`).join('')}
<ellipse cx="500" cy="720" rx="70" ry="120" fill="#4f7a43"/><ellipse cx="455" cy="650" rx="55" ry="80" fill="#6b9a55"/><rect x="465" y="800" width="70" height="90" fill="#8c6e58"/>
<rect x="0" y="860" width="1024" height="164" fill="#6e5a48"/>${lights}`;
  return mirror(scene, slot % 2 === 1);
}

function outdoor(slot: number, random: () => number): string {
  const greens = ['#2f5d2a', '#3f7a35', '#5c8f3e', '#7aa856', '#24492a'];
  const leaves: string[] = [];
  for (let i = 0; i < 40; i++) {
    const x = random() * 1024;
    const y = 180 + random() * 420;
    leaves.push(
      `<ellipse cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" rx="${(60 + random() * 90).toFixed(0)}" ry="${(50 + random() * 80).toFixed(0)}" fill="${greens[Math.floor(random() * greens.length)]}"/>`,
    );
  }
  const flecks: string[] = [];
  for (let i = 0; i < 14; i++) {
    flecks.push(
      `<circle cx="${(random() * 1024).toFixed(0)}" cy="${(150 + random() * 400).toFixed(0)}" r="${(14 + random() * 26).toFixed(0)}" fill="#fffbe0" opacity="${(0.5 + random() * 0.5).toFixed(2)}"/>`,
    );
  }
  const sky = slot % 3 === 2 ? ['#f3d9b1', '#fdf1dc'] : ['#9cc7ec', '#e4f1fb'];
  const scene = `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient>
<linearGradient id="lawn" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8fb15a"/><stop offset="1" stop-color="#56763a"/></linearGradient></defs>
<rect width="1024" height="1024" fill="url(#sky)"/>${leaves.join('')}
<rect x="150" y="420" width="26" height="260" fill="#4a3a2a"/><rect x="820" y="400" width="30" height="280" fill="#4a3a2a"/>
<rect x="0" y="660" width="1024" height="364" fill="url(#lawn)"/>${flecks.join('')}`;
  return mirror(scene, slot % 2 === 1);
}

/**
 * A backdrop plate, `side` × `side` RGB.
 *
 * @param focus where the head is, in 1024 px frame coordinates
 * @param random the slot's deterministic random stream
 */
export function backdrop(
  kind: Background,
  side: number,
  focus: BackdropFocus,
  slot: number,
  random: () => number,
): Promise<Buffer> {
  switch (kind) {
    case 'studio':
      return plate(studio(focus, slot), side, 6, random);
    case 'gradient':
      return plate(gradient(focus, slot, random), side, 4, random);
    case 'office':
      return plate(office(slot, random), side, 26, random);
    case 'outdoor':
      return plate(outdoor(slot, random), side, 30, random);
  }
}
