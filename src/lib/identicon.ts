/**
 * Default images drawn from a seed, in the manner of Gravatar's "identicon" (what Zulip shows for
 * users without an avatar when Gravatar is on): a 5 × 5 grid of cells, mirrored left to right,
 * in one colour on a light background. The same seed always gives the same image, and different
 * users almost always different ones; nothing about the user can be read back from it.
 */
import { createHash } from "node:crypto";
import { encodePng } from "./png.js";

const GRID = 5;
const BACKGROUND = [0xf0, 0xf0, 0xf0];

/** A colour from the hash: a hue anywhere, saturation and lightness kept readable on the background. */
function colourOf(hash: Buffer): number[] {
  const hue = ((hash[0] << 8) | hash[1]) % 360;
  const s = 0.45 + (hash[2] % 20) / 100;
  const l = 0.45 + (hash[3] % 15) / 100;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] = hue < 60 ? [c, x, 0] : hue < 120 ? [x, c, 0] : hue < 180 ? [0, c, x] : hue < 240 ? [0, x, c] : hue < 300 ? [x, 0, c] : [c, 0, x];
  return [r, g, b].map((v) => Math.round((v + m) * 255));
}

/** A square PNG of `size` pixels (a multiple of 10 keeps the cells even) for `seed`. */
export function identiconPng(seed: string, size: number): Buffer {
  const hash = createHash("sha256").update(seed).digest();
  const colour = colourOf(hash);
  const filled = (row: number, col: number) => {
    const bit = row * 3 + Math.min(col, GRID - 1 - col); // mirrored: columns 0-2 decide 4 and 3
    return (hash[4 + (bit >> 3)] >> (bit & 7)) & 1;
  };
  const margin = Math.floor(size / 10);
  const cell = Math.floor((size - 2 * margin) / GRID);
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const row = Math.floor((y - margin) / cell);
      const col = Math.floor((x - margin) / cell);
      const inGrid = y >= margin && x >= margin && row < GRID && col < GRID;
      const rgb = inGrid && filled(row, col) ? colour : BACKGROUND;
      pixels.set(rgb, (y * size + x) * 3);
    }
  }
  return encodePng(size, size, pixels);
}
