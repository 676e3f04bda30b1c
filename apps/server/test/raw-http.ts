import net from 'node:net';

/**
 * HTTP requests written byte for byte on a socket: the request target reaches the server
 * exactly as given (`/%61pi/...`, `http://host/api/...`, `/api/./x`), as an attacker would
 * send it. `inject` and HTTP clients tidy such targets before they are sent.
 */

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function rawRequest(
  port: number,
  request: {
    method: string;
    target: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  },
): Promise<RawAnswer> {
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const head = [
    `${request.method} ${request.target} HTTP/1.1`,
    'Host: kanak.test',
    'Connection: close',
    ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    ...(body ? [`Content-Length: ${body.length}`] : []),
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head);
      if (body) socket.write(body);
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${request.target}`)));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(parseAnswer(Buffer.concat(chunks).toString('utf8'))));
  });
}

function parseAnswer(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function dechunk(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * The ways of writing a route's path that a router or proxy may read as the route itself, or
 * that a careless check may read as something else. `spelled: true` marks the spellings this
 * server's router takes for the route (it decodes escapes and reads absolute-form targets).
 */
export function pathSpellings(path: string): { target: string; reachesRoute: boolean }[] {
  const [, first = '', ...rest] = path.split('/');
  const tail = rest.join('/');
  const encode = (text: string, at: number) =>
    `${text.slice(0, at)}%${text.charCodeAt(at).toString(16)}${text.slice(at + 1)}`;
  const lastSegment = rest.at(-1) ?? '';
  const reach = (target: string) => ({ target, reachesRoute: true });
  const other = (target: string) => ({ target, reachesRoute: false });
  return [
    reach(`/${encode(first, 0)}/${tail}`),
    reach(`/${encode(first, first.length - 1)}/${tail}`),
    reach(`/${first}/${rest.slice(0, -1).concat(encode(lastSegment, 0)).join('/')}`),
    reach(`http://kanak.test${path}`),
    reach(`https://evil.example:8443${path}`),
    other(`/%25${first.charCodeAt(0).toString(16)}${first.slice(1)}/${tail}`),
    other(`//${first}//${rest.join('//')}`),
    other(`/${first}/./${tail}`),
    other(`/${first}/x/../${tail}`),
    other(`/${first.toUpperCase()}/${tail}`),
    other(`${path}/`),
    other(`${path};jsessionid=0123456789`),
    other(`${path}%00`),
    other(`/${first}%2f${rest.join('%2f')}`),
    other(`${path}%20`),
  ];
}
