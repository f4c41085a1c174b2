/**
 * The "PREVIEW" mark the offline provider burns into every headshot it makes, bottom left (the app's favorite and
 * download buttons sit bottom right on a card): a small translucent dark pill with the word in white. Burned in, not only shown by the app, so a downloaded or shared offline composite
 * still says it is not an AI headshot. The letters are drawn as strokes, not text: rendering SVG text needs fonts,
 * which a Lambda runtime does not have.
 */

/** Each letter's strokes on a grid 6 units tall (SVG path data) and its advance width in units. */
const LETTERS: Record<string, { path: string; width: number }> = {
  P: { path: 'M0 6V0H2.6C4.2 0 4.2 3 2.6 3H0', width: 3.9 },
  R: { path: 'M0 6V0H2.6C4.2 0 4.2 3 2.6 3H0M2.2 3L3.8 6', width: 3.9 },
  E: { path: 'M3.4 0H0V6H3.4M0 3H2.8', width: 3.4 },
  V: { path: 'M0 0L1.9 6L3.8 0', width: 3.8 },
  I: { path: 'M0 0V6', width: 0 },
  W: { path: 'M0 0L1.2 6L2.5 1.6L3.8 6L5 0', width: 5 },
};
const WORD = 'PREVIEW';
/** Gap between letters, in units. */
const SPACING = 1.9;

/**
 * The mark as an SVG overlay of the whole headshot (sharp composites it over the image).
 *
 * @param side the headshot's side, px (1024): the letters are 1.6 % of it tall (16 px), the pill 3.3 %
 * @returns SVG bytes, `side` × `side`, transparent except for the mark
 */
export function previewMark(side: number): Buffer {
  const unit = (side * 0.016) / 6;
  let x = 0;
  const strokes: string[] = [];
  for (const letter of WORD) {
    const { path, width } = LETTERS[letter]!;
    strokes.push(`<path transform="translate(${x} 0)" d="${path}"/>`);
    x += width + SPACING;
  }
  const wordWidth = (x - SPACING) * unit;
  const padX = side * 0.014;
  const height = side * 0.033;
  const width = wordWidth + padX * 2;
  const margin = side * 0.022;
  const left = margin;
  const top = side - margin - height;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}">` +
      `<rect x="${left}" y="${top}" width="${width}" height="${height}" rx="${height / 2}" fill="#0f172a" fill-opacity="0.5"/>` +
      `<g transform="translate(${left + padX} ${top + (height - 6 * unit) / 2}) scale(${unit})" fill="none" stroke="#fff" stroke-opacity="0.92" stroke-width="0.95" stroke-linecap="round" stroke-linejoin="round">${strokes.join('')}</g>` +
      `</svg>`,
  );
}
