/**
 * The "PREVIEW" mark the offline provider burns into every headshot it makes, bottom left (the app's favorite and
 * download buttons sit bottom right on a card): a small translucent dark pill with the word in white. Burned in, not only shown by the app, so a downloaded or shared offline composite
 * still says it is not an AI headshot. The letters are drawn as strokes, not text: rendering SVG text needs fonts,
 * which a Lambda runtime does not have.
 */

/**
 * Each letter's strokes on a grid 6 units tall (SVG path data) and its advance width in units: the word PREVIEW and
 * the capitals of the outfit labels (./local-edits.ts).
 */
const LETTERS: Record<string, { path: string; width: number }> = {
  A: { path: 'M0 6L1.9 0L3.8 6M0.6 4H3.2', width: 3.8 },
  B: { path: 'M0 6V0H2.4C3.9 0 3.9 3 2.4 3H0M2.4 3C4.2 3 4.2 6 2.4 6H0', width: 3.7 },
  C: { path: 'M3.6 0.8C2.6 -0.4 0 0 0 3C0 6 2.6 6.4 3.6 5.2', width: 3.6 },
  D: { path: 'M0 0V6H1.8C4.4 6 4.4 0 1.8 0H0', width: 3.8 },
  E: { path: 'M3.4 0H0V6H3.4M0 3H2.8', width: 3.4 },
  F: { path: 'M3.4 0H0V6M0 3H2.8', width: 3.4 },
  G: { path: 'M3.6 0.8C2.6 -0.4 0 0 0 3C0 6 3.8 6.4 3.8 3.4H2.2', width: 3.8 },
  H: { path: 'M0 0V6M3.6 0V6M0 3H3.6', width: 3.6 },
  I: { path: 'M0 0V6', width: 0 },
  K: { path: 'M0 0V6M3.4 0L0 3.6M1.2 2.4L3.6 6', width: 3.6 },
  L: { path: 'M0 0V6H3.2', width: 3.2 },
  N: { path: 'M0 6V0L3.6 6V0', width: 3.6 },
  O: { path: 'M1.9 0C-0.6 0 -0.6 6 1.9 6C4.4 6 4.4 0 1.9 0Z', width: 3.8 },
  P: { path: 'M0 6V0H2.6C4.2 0 4.2 3 2.6 3H0', width: 3.9 },
  R: { path: 'M0 6V0H2.6C4.2 0 4.2 3 2.6 3H0M2.2 3L3.8 6', width: 3.9 },
  S: { path: 'M3.4 0.8C2.6 -0.2 0 -0.2 0 1.6C0 3.4 3.6 2.6 3.6 4.4C3.6 6.2 0.8 6.2 0 5.2', width: 3.6 },
  T: { path: 'M0 0H3.8M1.9 0V6', width: 3.8 },
  U: { path: 'M0 0V4.2C0 6.6 3.6 6.6 3.6 4.2V0', width: 3.6 },
  V: { path: 'M0 0L1.9 6L3.8 0', width: 3.8 },
  W: { path: 'M0 0L1.2 6L2.5 1.6L3.8 6L5 0', width: 5 },
  Z: { path: 'M0 0H3.6L0 6H3.6', width: 3.6 },
  ' ': { path: '', width: 1.6 },
};
const WORD = 'PREVIEW';
/** Gap between letters, in units. */
const SPACING = 1.9;

/** One line of capitals as strokes, and its width in units. @throws {RangeError} for a letter it cannot draw */
function strokesOf(word: string): { strokes: string; units: number } {
  let x = 0;
  const strokes: string[] = [];
  for (const letter of word) {
    const glyph = LETTERS[letter];
    if (!glyph) throw new RangeError(`The preview mark cannot draw '${letter}'`);
    if (glyph.path) strokes.push(`<path transform="translate(${x} 0)" d="${glyph.path}"/>`);
    x += glyph.width + SPACING;
  }
  return { strokes: strokes.join(''), units: x - SPACING };
}

/** A dark pill holding one line of capitals, its top left at (`left`, `top`), px. */
function pill(word: string, side: number, left: number, top: number): string {
  const unit = (side * 0.016) / 6;
  const { strokes, units } = strokesOf(word);
  const padX = side * 0.014;
  const height = side * 0.033;
  const width = units * unit + padX * 2;
  return (
    `<rect x="${left}" y="${top}" width="${width}" height="${height}" rx="${height / 2}" fill="#0f172a" fill-opacity="0.5"/>` +
    `<g transform="translate(${left + padX} ${top + (height - 6 * unit) / 2}) scale(${unit})" fill="none" stroke="#fff" stroke-opacity="0.92" stroke-width="0.95" stroke-linecap="round" stroke-linejoin="round">${strokes}</g>`
  );
}

/**
 * The mark as an SVG overlay of the whole headshot (sharp composites it over the image).
 *
 * @param side the headshot's side, px (1024): the letters are 1.6 % of it tall (16 px), the pill 3.3 %
 * @param label a second pill above the mark, in capitals and spaces (an outfit preview names its outfit there,
 *   ./local-edits.ts); none by default
 * @returns SVG bytes, `side` × `side`, transparent except for the mark
 * @throws {RangeError} for a label letter it cannot draw (only the capitals of PREVIEW and the outfit labels)
 */
export function previewMark(side: number, label?: string): Buffer {
  const margin = side * 0.022;
  const height = side * 0.033;
  const top = side - margin - height;
  const labelPill = label ? pill(label, side, margin, top - height - side * 0.01) : '';
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}">` +
      pill(WORD, side, margin, top) +
      labelPill +
      `</svg>`,
  );
}
