import { crc32, deflateSync } from "node:zlib";

/**
 * Screenshots for the demo's focus incidents, drawn here: a desktop with an app's window of coloured
 * shapes (a game, a video, a chat), never a real person or a real screen. Encoded as PNG by hand
 * (8-bit RGB, one zlib stream), which is all a PNG needs.
 */

export type DemoScene = "game" | "video" | "chat";

type Rgb = readonly [number, number, number];

const BRICK_ROWS: Rgb[] = [
  [239, 68, 68],
  [245, 158, 11],
  [59, 130, 246],
  [236, 72, 153],
];

const WIDTH = 480;
const HEIGHT = 300;

class Canvas {
  readonly pixels = Buffer.alloc(WIDTH * HEIGHT * 3);

  fill(x: number, y: number, width: number, height: number, [r, g, b]: Rgb) {
    for (let row = Math.max(0, y); row < Math.min(HEIGHT, y + height); row++) {
      for (let column = Math.max(0, x); column < Math.min(WIDTH, x + width); column++) {
        const at = (row * WIDTH + column) * 3;
        this.pixels[at] = r;
        this.pixels[at + 1] = g;
        this.pixels[at + 2] = b;
      }
    }
  }

  circle(cx: number, cy: number, radius: number, colour: Rgb) {
    for (let dy = -radius; dy <= radius; dy++) {
      const half = Math.floor(Math.sqrt(radius * radius - dy * dy));
      this.fill(cx - half, cy + dy, half * 2 + 1, 1, colour);
    }
  }
}

function drawDesktop(canvas: Canvas, accent: Rgb) {
  canvas.fill(0, 0, WIDTH, HEIGHT, [30, 41, 59]);
  canvas.fill(0, HEIGHT - 24, WIDTH, 24, [15, 23, 42]);
  for (let icon = 0; icon < 5; icon++) canvas.fill(12 + icon * 30, HEIGHT - 19, 18, 14, [71, 85, 105]);
  canvas.fill(40, 24, 400, 236, [241, 245, 249]);
  canvas.fill(40, 24, 400, 22, accent);
  for (let button = 0; button < 3; button++) canvas.circle(420 - button * 16, 35, 5, [226, 232, 240]);
}

function drawScene(canvas: Canvas, scene: DemoScene) {
  if (scene === "game") {
    drawDesktop(canvas, [124, 58, 237]);
    canvas.fill(52, 56, 376, 192, [22, 101, 52]);
    for (let row = 0; row < 4; row++)
      for (let column = 0; column < 9; column++)
        canvas.fill(64 + column * 40, 68 + row * 22, 34, 16, BRICK_ROWS[row] as Rgb);
    canvas.circle(240, 200, 8, [250, 250, 250]);
    canvas.fill(200, 232, 80, 8, [250, 250, 250]);
  } else if (scene === "video") {
    drawDesktop(canvas, [220, 38, 38]);
    canvas.fill(52, 56, 376, 160, [15, 23, 42]);
    canvas.fill(220, 116, 6, 40, [248, 250, 252]);
    for (let step = 0; step < 20; step++)
      canvas.fill(226 + step, 118 + step, 2, 36 - step * 2, [248, 250, 252]);
    canvas.fill(52, 226, 376, 6, [203, 213, 225]);
    canvas.fill(52, 226, 150, 6, [220, 38, 38]);
  } else {
    drawDesktop(canvas, [14, 165, 233]);
    for (let line = 0; line < 6; line++) {
      const mine = line % 2 === 1;
      const width = 120 + ((line * 53) % 140);
      canvas.fill(
        mine ? 416 - width : 64,
        60 + line * 32,
        width,
        22,
        mine ? [14, 165, 233] : [203, 213, 225],
      );
    }
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, checksum]);
}

/** A PNG of one of the demo's scenes. */
export function drawDemoScreenshot(scene: DemoScene): Buffer {
  const canvas = new Canvas();
  drawScene(canvas, scene);
  const rows = Buffer.alloc(HEIGHT * (WIDTH * 3 + 1));
  for (let row = 0; row < HEIGHT; row++) {
    // Each row starts with its filter type: 0, none.
    canvas.pixels.copy(rows, row * (WIDTH * 3 + 1) + 1, row * WIDTH * 3, (row + 1) * WIDTH * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
