/**
 * Captcha pictures for the login page. Characters are drawn as stroked paths from a small stroke
 * font, never as SVG <text>, so that reading the SVG source does not give the answer away.
 * svg-captcha needs `fs` and does not run in Workers
 * (docs/decisions/0010-captcha-drawn-as-paths.md).
 */

/** Glyphs on a 4 x 6 grid as polylines of x,y pairs; look-alikes (0/O, 1/I, B/8, S/5, G/6, Z/2, Q) left out. */
const GLYPHS: Record<string, number[][]> = {
  "2": [[0, 1, 1, 0, 3, 0, 4, 1, 4, 2, 0, 6, 4, 6]],
  "3": [[0, 0, 4, 0, 2, 2.5, 4, 3.5, 4, 5, 3, 6, 1, 6, 0, 5]],
  "4": [[3, 6, 3, 0, 0, 4, 4, 4]],
  "5": [[4, 0, 0, 0, 0, 2.5, 3, 2.5, 4, 3.5, 4, 5, 3, 6, 0, 6]],
  "6": [[4, 0, 1, 0, 0, 1, 0, 5, 1, 6, 3, 6, 4, 5, 4, 3.5, 3, 2.5, 0, 2.5]],
  "7": [[0, 0, 4, 0, 1.5, 6]],
  "8": [[1, 0, 3, 0, 4, 1, 4, 2, 3, 3, 1, 3, 0, 4, 0, 5, 1, 6, 3, 6, 4, 5, 4, 4, 3, 3], [1, 3, 0, 2, 0, 1, 1, 0]],
  "9": [[4, 3.5, 1, 3.5, 0, 2.5, 0, 1, 1, 0, 3, 0, 4, 1, 4, 5, 3, 6, 0, 6]],
  A: [[0, 6, 2, 0, 4, 6], [0.7, 4, 3.3, 4]],
  C: [[4, 1, 3, 0, 1, 0, 0, 1, 0, 5, 1, 6, 3, 6, 4, 5]],
  D: [[0, 0, 0, 6, 3, 6, 4, 5, 4, 1, 3, 0, 0, 0]],
  E: [[4, 0, 0, 0, 0, 6, 4, 6], [0, 3, 3, 3]],
  F: [[4, 0, 0, 0, 0, 6], [0, 3, 3, 3]],
  H: [[0, 0, 0, 6], [4, 0, 4, 6], [0, 3, 4, 3]],
  J: [[4, 0, 4, 5, 3, 6, 1, 6, 0, 5]],
  K: [[0, 0, 0, 6], [4, 0, 0, 3.5], [1.2, 2.6, 4, 6]],
  L: [[0, 0, 0, 6, 4, 6]],
  M: [[0, 6, 0, 0, 2, 3, 4, 0, 4, 6]],
  N: [[0, 6, 0, 0, 4, 6, 4, 0]],
  P: [[0, 6, 0, 0, 3, 0, 4, 1, 4, 2, 3, 3, 0, 3]],
  R: [[0, 6, 0, 0, 3, 0, 4, 1, 4, 2, 3, 3, 0, 3], [2, 3, 4, 6]],
  T: [[0, 0, 4, 0], [2, 0, 2, 6]],
  U: [[0, 0, 0, 5, 1, 6, 3, 6, 4, 5, 4, 0]],
  V: [[0, 0, 2, 6, 4, 0]],
  W: [[0, 0, 1, 6, 2, 2, 3, 6, 4, 0]],
  X: [[0, 0, 4, 6], [4, 0, 0, 6]],
  Y: [[0, 0, 2, 3, 4, 0], [2, 3, 2, 6]],
};

export const CAPTCHA_ALPHABET = Object.keys(GLYPHS).join("");

function random(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32;
}
const between = (min: number, max: number) => min + random() * (max - min);

export function randomCaptchaText(length = 4): string {
  let text = "";
  for (let i = 0; i < length; i++) text += CAPTCHA_ALPHABET[Math.floor(random() * CAPTCHA_ALPHABET.length)];
  return text;
}

const WIDTH = 120;
const HEIGHT = 40;

export function renderCaptcha(text: string): string {
  const cell = WIDTH / (text.length + 1);
  const paths: string[] = [];
  for (let n = 0; n < 3; n++) {
    const y1 = between(5, HEIGHT - 5);
    const y2 = between(5, HEIGHT - 5);
    paths.push(
      `<path d="M2 ${y1.toFixed(1)} Q${between(30, 90).toFixed(1)} ${between(0, HEIGHT).toFixed(1)} ${WIDTH - 2} ${y2.toFixed(1)}" stroke="hsl(${Math.floor(between(0, 360))},45%,60%)" stroke-width="1.2" fill="none"/>`,
    );
  }
  [...text].forEach((ch, i) => {
    const scale = between(4.2, 5.2);
    const cx = cell * (i + 0.6) + between(-3, 3);
    const cy = HEIGHT / 2 + between(-3, 3);
    const angle = between(-18, 18);
    const d = GLYPHS[ch]
      .map((line) => {
        let s = "";
        for (let k = 0; k < line.length; k += 2) {
          const x = (line[k] - 2) * scale + between(-0.4, 0.4);
          const y = (line[k + 1] - 3) * scale + between(-0.4, 0.4);
          s += `${k === 0 ? "M" : "L"}${x.toFixed(1)} ${y.toFixed(1)}`;
        }
        return s;
      })
      .join("");
    paths.push(
      `<path transform="translate(${cx.toFixed(1)} ${cy.toFixed(1)}) rotate(${angle.toFixed(1)})" d="${d}" stroke="hsl(${Math.floor(between(0, 360))},60%,32%)" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round" fill="none"/>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}"><rect width="100%" height="100%" fill="#f4f6f4"/>${paths.join("")}</svg>`;
}
