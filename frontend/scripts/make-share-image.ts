/**
 * `node --import tsx frontend/scripts/make-share-image.ts`: writes `frontend/public/images/share.png`, the 1200×630
 * image that link previews (Open Graph, Twitter cards) show for the landing and pricing pages: the brand's indigo,
 * the headline and three of the landing's sample headshots. Run it again when the samples change.
 */
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const images = fileURLToPath(new URL('../public/images/', import.meta.url));
const WIDTH = 1200;
const HEIGHT = 630;
const TILE = 190;
const SAMPLES = ['headshot-navy-studio.webp', 'headshot-warm-office.webp', 'headshot-slate-blue.webp'];

const background = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#4338ca"/><stop offset="1" stop-color="#312e81"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <text x="64" y="120" font-family="DejaVu Sans, Arial, sans-serif" font-size="34" font-weight="700" fill="#c7d2fe">Headshot Studio</text>
  <text x="64" y="250" font-family="DejaVu Sans, Arial, sans-serif" font-size="52" font-weight="700" fill="#ffffff">Professional headshots</text>
  <text x="64" y="325" font-family="DejaVu Sans, Arial, sans-serif" font-size="52" font-weight="700" fill="#ffffff">from your selfies</text>
  <text x="64" y="420" font-family="DejaVu Sans, Arial, sans-serif" font-size="26" fill="#e0e7ff">5-10 selfies in, studio-quality AI headshots out.</text>
  <text x="64" y="462" font-family="DejaVu Sans, Arial, sans-serif" font-size="26" fill="#e0e7ff">6 free credits to start.</text>
</svg>`);

const rounded = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${TILE}" height="${TILE}"><rect width="${TILE}" height="${TILE}" rx="24" fill="#fff"/></svg>`,
);
const tiles = await Promise.all(
  SAMPLES.map((name) =>
    sharp(`${images}${name}`)
      .resize(TILE, TILE, { fit: 'cover', position: 'top' })
      .composite([{ input: rounded, blend: 'dest-in' }])
      .png()
      .toBuffer(),
  ),
);
const positions = [
  { left: 800, top: 70 },
  { left: 1000, top: 70 },
  { left: 900, top: 280 },
];
await sharp(background)
  .composite(tiles.map((input, i) => ({ input, ...positions[i]! })))
  .png({ compressionLevel: 9 })
  .toFile(`${images}share.png`);
process.stdout.write(`wrote ${images}share.png\n`);
