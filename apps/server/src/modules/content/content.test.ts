import { createHash, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { LIMITS, MESSAGES, type ImageRecord } from '@kanak/contract';
import { addUser, authed, login, signedIn, type SignedIn } from '../../../test/helpers.js';

let ctx: SignedIn;

beforeAll(async () => {
  ctx = await signedIn('owner', { username: 'nisha' });
});
afterAll(() => ctx.close());
// Every test starts with no images (the audit log is kept: tests count its rows).
beforeEach(async () => {
  await ctx.sql(`DELETE FROM app_images`);
});

/** Real 1x1 images: the bytes are what the server judges. */
const IMAGES = {
  'image/png': Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  'image/jpeg': Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
  'image/gif': Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  'image/webp': Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
} as const;
const PNG = IMAGES['image/png'];
const GIF = IMAGES['image/gif'];

/** A distinct valid PNG each time (the same header, different trailing bytes). */
let variant = 0;
const pngVariant = () => Buffer.concat([PNG, Buffer.from(`variant ${++variant}`)]);

/** A PNG of exactly `size` bytes. */
const pngOfSize = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);

/** A PNG signature and header declaring `width` × `height`, with no picture behind them. */
function pngDeclaring(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type Field = [name: string, value: string | { bytes: Buffer; filename: string; mime: string }];

/** A multipart body as a browser's FormData would send it, fields in the given order. */
async function multipartBody(fields: Field[]) {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === 'string') form.append(name, value);
    else
      form.append(
        name,
        new Blob([new Uint8Array(value.bytes)], { type: value.mime }),
        value.filename,
      );
  }
  const request = new Request('http://kanak.test/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type')!,
  };
}

async function uploadFields(fields: Field[], idempotencyKey?: string) {
  const { payload, contentType } = await multipartBody(fields);
  return ctx.inject({
    method: 'POST',
    url: '/api/file/upload',
    payload,
    headers: { 'content-type': contentType },
    idempotencyKey,
  });
}

const upload = (
  type: string,
  bytes: Buffer,
  options: { filename?: string; mime?: string; typeFirst?: boolean; key?: string } = {},
) => {
  const file: Field = [
    'file',
    { bytes, filename: options.filename ?? 'photo.png', mime: options.mime ?? 'image/png' },
  ];
  const typeField: Field = ['type', type];
  return uploadFields(
    options.typeFirst === false ? [file, typeField] : [typeField, file],
    options.key,
  );
};

const post = (path: string, payload: Record<string, unknown>) =>
  ctx.inject({ method: 'POST', url: `/api/file/${path}`, payload });

const getPublic = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

async function uploaded(response: LightMyRequestResponse | Promise<LightMyRequestResponse>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  const body = settled.json<{ success: boolean; message: string; data: ImageRecord }>();
  expect(body.success).toBe(true);
  expect(body.message).toBe(MESSAGES.imageUploaded);
  return body.data;
}

const expectRefusal = (response: LightMyRequestResponse, status: number, message?: string) => {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  expect(body.success).toBe(false);
  if (message !== undefined) expect(body.message).toBe(message);
};

const imageCount = async (type?: string) =>
  (
    await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM app_images WHERE $1::text IS NULL OR type = $1`,
      [type ?? null],
    )
  )[0]!.n;

const auditCount = async () =>
  (
    await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE entity = 'app_image'`,
    )
  )[0]!.n;

/** Runs a refusal and checks that it stored no image and wrote no audit row. */
async function changesNothing(action: () => Promise<void>) {
  const before = { images: await imageCount(), audits: await auditCount() };
  await action();
  expect({ images: await imageCount(), audits: await auditCount() }).toEqual(before);
}

describe('POST /api/file/upload', () => {
  it('accepts PNG, JPEG, GIF and WebP and serves each back byte-identical with its type', async () => {
    for (const [mime, bytes] of Object.entries(IMAGES)) {
      const record = await uploaded(
        upload('card', bytes, { filename: `x.${mime.split('/')[1]}`, mime }),
      );
      expect(record).toEqual({
        ID: expect.any(Number),
        URL: `/api/app/images/${record.ID}`,
        PATH: expect.stringMatching(/^img_[0-9a-f]{32}$/),
        TYPE: 'card',
      });
      const served = await getPublic(record.URL);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(mime);
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect(served.headers.etag).toBe(`"${digest(bytes)}"`);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      const [row] = await ctx.sql<{ mime: string; size_bytes: number; sha256: string }>(
        `SELECT mime, size_bytes, sha256 FROM app_images WHERE id = $1`,
        [record.ID],
      );
      expect(row).toEqual({ mime, size_bytes: bytes.length, sha256: digest(bytes) });
    }
  });

  it('judges the bytes, not the name or the declared type', async () => {
    const record = await uploaded(
      upload('banner', GIF, { filename: 'holiday.png', mime: 'application/octet-stream' }),
    );
    const served = await getPublic(record.URL);
    expect(served.headers['content-type']).toBe('image/gif');
  });

  it('takes the fields file and type in either order', async () => {
    const first = await uploaded(upload('banner', pngVariant(), { typeFirst: false }));
    const second = await uploaded(upload('card', pngVariant(), { typeFirst: true }));
    expect([first.TYPE, second.TYPE]).toEqual(['banner', 'card']);
  });

  it('refuses a text file named x.png and sent as image/png with 415', async () => {
    await changesNothing(async () => {
      const response = await upload('banner', Buffer.from('I am not a picture.\n'), {
        filename: 'x.png',
        mime: 'image/png',
      });
      expectRefusal(response, 415, MESSAGES.imageFormat);
    });
  });

  it('refuses other formats (SVG, PDF) with 415', async () => {
    await changesNothing(async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>');
      expectRefusal(
        await upload('banner', svg, { mime: 'image/svg+xml' }),
        415,
        MESSAGES.imageFormat,
      );
      const pdf = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
      expectRefusal(await upload('banner', pdf), 415, MESSAGES.imageFormat);
    });
  });

  it('accepts exactly 5 MB and refuses 5 MB + 1 byte with 413', async () => {
    await changesNothing(async () => {
      const response = await upload('banner', pngOfSize(LIMITS.imageMaxBytes + 1));
      expectRefusal(response, 413, MESSAGES.imageTooLarge);
    });
    const record = await uploaded(upload('banner', pngOfSize(LIMITS.imageMaxBytes)));
    const served = await getPublic(record.URL);
    expect(served.rawPayload.length).toBe(LIMITS.imageMaxBytes);
  });

  it('refuses an image whose header declares more than 40 megapixels with 413, before anything is stored', async () => {
    // A few hundred bytes that a phone would have to decode into 1.6 GB.
    for (const [width, height] of [
      [20_000, 20_000],
      [8_000, 5_001],
      [1, 40_000_001],
    ] as const) {
      await changesNothing(async () => {
        const response = await upload('banner', pngDeclaring(width, height));
        expectRefusal(response, 413, MESSAGES.imageTooManyPixels);
      });
    }
    // The limit itself is allowed.
    await uploaded(upload('card', pngDeclaring(8_000, 5_000)));
  });

  it('refuses a type other than banner or card, a missing type and a missing file with 400', async () => {
    await changesNothing(async () => {
      expectRefusal(await upload('other', PNG), 400, MESSAGES.imageTypeInvalid);
      expectRefusal(
        await uploadFields([['file', { bytes: PNG, filename: 'a.png', mime: 'image/png' }]]),
        400,
        MESSAGES.imageTypeInvalid,
      );
      expectRefusal(await uploadFields([['type', 'banner']]), 400, MESSAGES.imageRequired);
      expectRefusal(await upload('banner', Buffer.alloc(0)), 400, MESSAGES.imageRequired);
      expectRefusal(
        await uploadFields([
          ['type', 'banner'],
          ['image', { bytes: PNG, filename: 'a.png', mime: 'image/png' }],
        ]),
        400,
        MESSAGES.imageRequired,
      );
    });
  });

  it('refuses two files in one request, a cut-off body and a JSON body', async () => {
    await changesNothing(async () => {
      const two = await uploadFields([
        ['type', 'banner'],
        ['file', { bytes: PNG, filename: 'a.png', mime: 'image/png' }],
        ['file', { bytes: GIF, filename: 'b.gif', mime: 'image/gif' }],
      ]);
      expectRefusal(two, 400, MESSAGES.oneImageAtATime);

      const { payload, contentType } = await multipartBody([
        ['type', 'banner'],
        ['file', { bytes: PNG, filename: 'a.png', mime: 'image/png' }],
      ]);
      const cut = await ctx.inject({
        method: 'POST',
        url: '/api/file/upload',
        payload: payload.subarray(0, payload.length - 20),
        headers: { 'content-type': contentType },
      });
      expectRefusal(cut, 400, MESSAGES.invalidUpload);

      const json = await post('upload', { type: 'banner', file: PNG.toString('base64') });
      expectRefusal(json, 415, MESSAGES.unsupportedContentType);
    });
  });

  it('refuses the 6th image of a type with 409 while the other type still accepts', async () => {
    for (let i = 0; i < LIMITS.imagesPerType; i++) await uploaded(upload('banner', pngVariant()));
    await changesNothing(async () => {
      expectRefusal(await upload('banner', pngVariant()), 409, MESSAGES.maxImages);
    });
    await uploaded(upload('card', pngVariant()));
    expect(await imageCount('banner')).toBe(5);
    expect(await imageCount('card')).toBe(1);
  });

  it('stores exactly 5 of 10 concurrent uploads into an empty type', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => upload('card', pngVariant())),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 409, 409, 409, 409, 409]);
    expect(await imageCount('card')).toBe(5);
  });

  it('replays a repeat with the same Idempotency-Key and stores one image', async () => {
    const key = randomUUID();
    const bytes = pngVariant();
    const first = await uploaded(upload('banner', bytes, { key }));
    const again = await upload('banner', bytes, { key, filename: 'renamed.png' });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data).toEqual(first);
    expect(await imageCount()).toBe(1);

    await changesNothing(async () => {
      expectRefusal(
        await upload('banner', pngVariant(), { key }),
        409,
        MESSAGES.idempotencyKeyReused,
      );
      expectRefusal(await upload('card', bytes, { key }), 409, MESSAGES.idempotencyKeyReused);
    });
  });

  it('needs an Idempotency-Key', async () => {
    const { payload, contentType } = await multipartBody([
      ['type', 'banner'],
      ['file', { bytes: PNG, filename: 'a.png', mime: 'image/png' }],
    ]);
    await changesNothing(async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/file/upload',
        payload,
        headers: { 'content-type': contentType, authorization: `Bearer ${ctx.token}` },
      });
      expectRefusal(response, 400, MESSAGES.idempotencyKeyRequired);
    });
  });

  it('records who uploaded what in the audit log', async () => {
    const bytes = pngVariant();
    const record = await uploaded(upload('banner', bytes));
    const [audit] = await ctx.sql<{ username: string; action: string; detail: unknown }>(
      `SELECT u.username, a.action, a.detail FROM audit_log a JOIN users u ON u.id = a.user_id
        WHERE a.entity = 'app_image' AND a.entity_id = $1`,
      [String(record.ID)],
    );
    expect(audit).toEqual({
      username: 'nisha',
      action: 'image.upload',
      detail: {
        type: 'banner',
        mime: 'image/png',
        sizeBytes: bytes.length,
        sha256: digest(bytes),
        path: record.PATH,
      },
    });
    const [row] = await ctx.sql<{ created_by: number; username: string }>(
      `SELECT u.username FROM app_images i JOIN users u ON u.id = i.created_by WHERE i.id = $1`,
      [record.ID],
    );
    expect(row).toEqual({ username: 'nisha' });
  });
});

describe('POST /api/file/get-files', () => {
  it('lists the images of one type, newest first, as ID, URL, PATH, TYPE', async () => {
    const a = await uploaded(upload('banner', pngVariant()));
    const b = await uploaded(upload('banner', pngVariant()));
    await uploaded(upload('card', pngVariant()));
    const response = await post('get-files', { type: 'banner' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: [b, a] });
  });

  it('answers an empty list when a type has no images', async () => {
    expect((await post('get-files', { type: 'card' })).json()).toEqual({ success: true, data: [] });
  });

  it('refuses a type other than banner or card with 400', async () => {
    for (const type of ['other', '', undefined, 3]) {
      expectRefusal(await post('get-files', { type }), 400, MESSAGES.imageTypeInvalid);
    }
  });
});

describe('POST /api/file/delete', () => {
  it('deletes by id when the path is that image, and audits it', async () => {
    const record = await uploaded(upload('banner', pngVariant()));
    const response = await post('delete', { id: record.ID, path: record.PATH });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: MESSAGES.imageDeleted });
    expect(await imageCount()).toBe(0);
    expectRefusal(await getPublic(record.URL), 404, MESSAGES.imageNotFound);
    const actions = await ctx.sql<{ action: string }>(
      `SELECT action FROM audit_log WHERE entity = 'app_image' AND entity_id = $1 ORDER BY id`,
      [String(record.ID)],
    );
    expect(actions.map((row) => row.action)).toEqual(['image.upload', 'image.delete']);
  });

  it('accepts the id as digits in text', async () => {
    const record = await uploaded(upload('card', pngVariant()));
    expect((await post('delete', { id: String(record.ID), path: record.PATH })).statusCode).toBe(
      200,
    );
  });

  it('refuses a path that is not the image with 400 and keeps the image', async () => {
    const record = await uploaded(upload('banner', pngVariant()));
    const other = await uploaded(upload('banner', pngVariant()));
    await changesNothing(async () => {
      for (const path of [other.PATH, '/var/lib/kanak/uploads/banner.png', record.URL, 'img_0']) {
        expectRefusal(
          await post('delete', { id: record.ID, path }),
          400,
          MESSAGES.imagePathMismatch,
        );
      }
    });
    expect((await getPublic(record.URL)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown id and 400 for a malformed request', async () => {
    const record = await uploaded(upload('banner', pngVariant()));
    await changesNothing(async () => {
      expectRefusal(
        await post('delete', { id: record.ID + 1000, path: record.PATH }),
        404,
        MESSAGES.imageNotFound,
      );
      expectRefusal(
        await post('delete', { id: 'abc', path: record.PATH }),
        400,
        "The image's number must be a whole number.",
      );
      expectRefusal(await post('delete', { id: record.ID }), 400, 'The image is required.');
      expectRefusal(await post('delete', { id: 0, path: record.PATH }), 400);
    });
  });

  it('makes room for a new image of a full type', async () => {
    const records = [];
    for (let i = 0; i < LIMITS.imagesPerType; i++)
      records.push(await uploaded(upload('card', pngVariant())));
    expectRefusal(await upload('card', pngVariant()), 409, MESSAGES.maxImages);
    await post('delete', { id: records[0]!.ID, path: records[0]!.PATH });
    await uploaded(upload('card', pngVariant()));
  });
});

describe('public content for the mobile app', () => {
  it('GET /api/app/content lists banners and catalogue URLs, newest first, without a token', async () => {
    const b1 = await uploaded(upload('banner', pngVariant()));
    const c1 = await uploaded(upload('card', pngVariant()));
    const b2 = await uploaded(upload('banner', pngVariant()));
    const response = await getPublic('/api/app/content');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: { banners: [b2.URL, b1.URL], catalogue: [c1.URL] },
    });
  });

  it('GET /api/app/content answers empty lists when there are no images', async () => {
    expect((await getPublic('/api/app/content')).json()).toEqual({
      success: true,
      data: { banners: [], catalogue: [] },
    });
  });

  it('GET /api/app/images/:id answers 304 with no body for a matching ETag', async () => {
    const bytes = pngVariant();
    const record = await uploaded(upload('banner', bytes));
    const etag = `"${digest(bytes)}"`;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"something-else", ${etag}`, '*']) {
      const response = await getPublic(record.URL, { 'if-none-match': ifNoneMatch });
      expect(response.statusCode, ifNoneMatch).toBe(304);
      expect(response.rawPayload.length).toBe(0);
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const stale = await getPublic(record.URL, { 'if-none-match': '"an-older-copy"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(bytes)).toBe(true);
  });

  it('GET /api/app/images/:id answers 404 in JSON for an unknown or malformed id', async () => {
    for (const id of ['999999', '0', 'abc', '1.5', '99999999999', '-1']) {
      expectRefusal(await getPublic(`/api/app/images/${id}`), 404, MESSAGES.imageNotFound);
    }
  });

  it('serves HEAD for an image without the body', async () => {
    const record = await uploaded(upload('banner', pngVariant()));
    const response = await ctx.app.inject({ method: 'HEAD', url: record.URL });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.rawPayload.length).toBe(0);
  });
});

describe('authentication', () => {
  it('answers 401 without a token on the staff routes, and changes nothing', async () => {
    const { payload, contentType } = await multipartBody([
      ['type', 'banner'],
      ['file', { bytes: PNG, filename: 'a.png', mime: 'image/png' }],
    ]);
    await changesNothing(async () => {
      const requests = [
        { url: '/api/file/upload', payload, headers: { 'content-type': contentType } },
        { url: '/api/file/get-files', payload: { type: 'banner' } },
        { url: '/api/file/delete', payload: { id: 1, path: 'img_x' } },
      ];
      for (const request of requests) {
        const response = await ctx.app.inject({
          method: 'POST',
          ...request,
          headers: { 'idempotency-key': randomUUID(), ...request.headers },
        });
        expectRefusal(response, 401, MESSAGES.sessionExpired);
      }
    });
  });

  it('refuses an upload retried after its session ended with 401, doing nothing twice', async () => {
    await addUser(ctx, 'ended', 'Ended@1928');
    const old = await login(ctx, 'ended', 'Ended@1928');
    const { payload, contentType } = await multipartBody([
      ['type', 'banner'],
      ['file', { bytes: pngVariant(), filename: 'a.png', mime: 'image/png' }],
    ]);
    const send = () =>
      ctx.app.inject(
        authed(old, {
          method: 'POST',
          url: '/api/file/upload',
          payload,
          headers: { 'content-type': contentType },
          idempotencyKey: 'retry-after-password-change',
        }),
      );
    expect((await send()).statusCode).toBe(200);
    await ctx.sql(`UPDATE users SET token_version = token_version + 1 WHERE username = 'ended'`);
    await changesNothing(async () => {
      expectRefusal(await send(), 401, MESSAGES.sessionExpired);
    });
  });

  it('registers the two public routes as public and the staff routes as not', () => {
    const routes = Object.fromEntries(
      ctx.app.registeredRoutes
        .filter((route) => /^\/api\/(file|app\/(content|images))/.test(route.url))
        .map((route) => [`${route.method} ${route.url}`, route.public]),
    );
    expect(routes).toEqual({
      'POST /api/file/upload': false,
      'POST /api/file/get-files': false,
      'POST /api/file/delete': false,
      'GET /api/app/content': true,
      'GET /api/app/images/:id': true,
    });
  });
});
