import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { LIMITS, MESSAGES } from '@kanak/contract';
import { signedIn, type SignedIn } from '../../../test/helpers.js';

/**
 * A GIF's header declares only its logical screen; every frame has its own size and place.
 * An attacker's GIF declares a 10 × 10 screen (a few bytes, well under the 40-megapixel
 * limit) and holds a frame of 65535 × 65535: a phone's decoder would try to make room for
 * 4.3 billion pixels. Uploads are judged by the screen grown to hold every frame, and by
 * how many frames there are.
 */
let ctx: SignedIn;

beforeAll(async () => {
  ctx = await signedIn('owner');
});
afterAll(() => ctx?.close());
beforeEach(async () => {
  await ctx.sql(`DELETE FROM app_images`);
});

const u16 = (value: number) => [value & 0xff, value >> 8];

interface Frame {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

/**
 * A GIF89a of a `width` × `height` screen with a two-colour palette and the frames given,
 * each a valid image descriptor followed by a tiny LZW stream (its pixels are never needed).
 */
function gif(width: number, height: number, frames: Frame[]) {
  const bytes = [
    ...Buffer.from('GIF89a', 'latin1'),
    ...u16(width),
    ...u16(height),
    0x80, // a global colour table of 2 colours
    0,
    0,
    ...[0, 0, 0, 255, 255, 255],
  ];
  for (const frame of frames) {
    bytes.push(
      0x2c,
      ...u16(frame.x ?? 0),
      ...u16(frame.y ?? 0),
      ...u16(frame.width),
      ...u16(frame.height),
      0,
      // LZW minimum code size 2, one sub-block of 2 bytes, the block terminator.
      2,
      2,
      0x44,
      0x01,
      0,
    );
  }
  bytes.push(0x3b);
  return Buffer.from(bytes);
}

async function upload(bytes: Buffer, filename = 'offer.gif') {
  const form = new FormData();
  form.append('type', 'banner');
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/gif' }), filename);
  const request = new Request('http://kanak.test/', { method: 'POST', body: form });
  return ctx.inject({
    method: 'POST',
    url: '/api/file/upload',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
}

const stored = async () =>
  (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM app_images`))[0]!.n;

const expectRefusal = (response: LightMyRequestResponse, status: number, message: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ success: false, message });
};

describe('GIF uploads, frame by frame', () => {
  it('refuses a 10 × 10 screen holding a 65535 × 65535 frame with 413, storing nothing', async () => {
    expectRefusal(
      await upload(gif(10, 10, [{ width: 65_535, height: 65_535 }])),
      413,
      MESSAGES.imageTooManyPixels,
    );
    expect(await stored()).toBe(0);
  });

  it('refuses a huge frame hidden after a normal first frame, or placed far off the screen', async () => {
    for (const frames of [
      [
        { width: 10, height: 10 },
        { width: 10, height: 10 },
        { width: 20_000, height: 2_001 },
      ],
      [{ x: 60_000, y: 60_000, width: 10, height: 10 }],
      [
        { x: 0, y: 8_000, width: 5_000, height: 1 },
        { width: 8_000, height: 1 },
      ],
    ]) {
      expectRefusal(await upload(gif(10, 10, frames)), 413, MESSAGES.imageTooManyPixels);
    }
    expect(await stored()).toBe(0);
  });

  it('refuses an animation of more frames than a phone should draw, and takes one at the limit', async () => {
    const frames = (n: number) => Array.from({ length: n }, () => ({ width: 10, height: 10 }));
    expectRefusal(
      await upload(gif(10, 10, frames(LIMITS.gifMaxFrames + 1))),
      413,
      MESSAGES.gifTooManyFrames(LIMITS.gifMaxFrames),
    );
    expect(await stored()).toBe(0);
    expect((await upload(gif(10, 10, frames(LIMITS.gifMaxFrames)))).statusCode).toBe(200);
  });

  it('refuses a 7.5 KB GIF of 500 frames of 6000 × 6000: 18 billion pixels to draw', async () => {
    const frames = Array.from({ length: 500 }, () => ({ width: 6_000, height: 6_000 }));
    const bytes = gif(6_000, 6_000, frames);
    // Each frame within the picture limit, and no more frames than allowed: only together
    // are they too many pixels.
    expect(bytes.length).toBeLessThan(7_600);
    expect(6_000 * 6_000).toBeLessThanOrEqual(LIMITS.imageMaxPixels);
    expect(frames.length).toBeLessThanOrEqual(LIMITS.gifMaxFrames);
    expectRefusal(await upload(bytes), 413, MESSAGES.gifTooManyAnimationPixels);
    // Small frames on a large screen are each drawn on the whole screen.
    const small = Array.from({ length: 100 }, () => ({ width: 10, height: 10 }));
    expectRefusal(await upload(gif(5_000, 5_000, small)), 413, MESSAGES.gifTooManyAnimationPixels);
    expect(await stored()).toBe(0);
  });

  it('takes a banner animation of hundreds of frames', async () => {
    const frames = Array.from({ length: 300 }, (_, i) => ({
      x: i % 2 === 0 ? 0 : 40,
      y: 0,
      width: i % 2 === 0 ? 1_080 : 200,
      height: i % 2 === 0 ? 540 : 100,
    }));
    const response = await upload(gif(1_080, 540, frames));
    expect(response.statusCode, response.body).toBe(200);
    expect(await stored()).toBe(1);
  });

  it('refuses a GIF whose frames cannot be read (cut off midway) with 415', async () => {
    const whole = gif(10, 10, [{ width: 10, height: 10 }]);
    const cut = whole.subarray(0, whole.length - 4);
    expectRefusal(await upload(cut), 415, MESSAGES.imageFormat);
    expect(await stored()).toBe(0);
  });

  it('still takes GIFs whose frames fit, animated ones and those up to the limit', async () => {
    const accepted = [
      gif(10, 10, [{ width: 10, height: 10 }]),
      gif(300, 100, [
        { width: 300, height: 100 },
        { x: 50, y: 20, width: 100, height: 50 },
        { x: 290, y: 90, width: 10, height: 10 },
      ]),
      // A frame larger than its screen, the whole still within 40 megapixels.
      gif(10, 10, [{ width: 8_000, height: 5_000 }]),
      // The classic 1 × 1 GIF with a graphics control extension.
      Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
    ];
    for (const bytes of accepted) {
      const response = await upload(bytes);
      expect(response.statusCode, response.body).toBe(200);
    }
    expect(await stored()).toBe(accepted.length);
  });
});
