import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { misbehave, type Misbehaved, type Misbehaviour } from './misbehaving-http.js';

/**
 * A local stand-in for TallyPrime's XML server, a real HTTP server on 127.0.0.1: it reads an
 * "Import Data" envelope as Tally does, keeps each voucher by its REMOTEID (a voucher whose
 * REMOTEID it already holds is altered, whatever the ACTION says; Alter of one it does not hold
 * is refused), refuses a voucher whose lines do not balance, or that names a ledger the company
 * does not have, with a LINEERROR in Tally's words, and answers TallyPrime's IMPORTRESULT with
 * the counts. XML that is not well formed gets Tally's plain refusal. Told to `misbehave`, it
 * keeps the body it received but answers as a hostile or broken server would (a redirect, a
 * stall, a flood) and imports nothing.
 */

export interface FakeTallyVoucher {
  remoteId: string;
  type: string;
  action: string;
  date: string;
  number: string;
  narration: string;
  lines: { ledger: string; deemedPositive: string; amount: string }[];
}

export interface FakeTally {
  url: string;
  /** The vouchers held, by REMOTEID. */
  readonly vouchers: Map<string, FakeTallyVoucher>;
  /** The bodies received, in order. */
  readonly requests: string[];
  /** The company's ledgers; a voucher naming another is refused. */
  ledgers: Set<string>;
  /**
   * Tally's words for a voucher it refuses for a reason of its own (a closed period, a locked
   * voucher type), when it does: its LINEERROR may quote the voucher's narration.
   */
  refuse: ((voucher: FakeTallyVoucher) => string | undefined) | undefined;
  /** Every request's answer instead of Tally's, until unset. */
  misbehave: Misbehaviour | undefined;
  /** What became of each misbehaving answer, in order (when the client went away). */
  readonly misbehaved: Misbehaved[];
  close(): Promise<void>;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'TALLYMESSAGE' || name === 'ALLLEDGERENTRIES.LIST',
});

/** Tally's amount text in paise; NaN unless it has exactly two decimals. */
const paiseOf = (amount: string) =>
  /^-?\d+\.\d{2}$/.test(amount) ? Math.round(Number(amount) * 100) : Number.NaN;

export async function startFakeTally(ledgers: Iterable<string>): Promise<FakeTally> {
  const vouchers = new Map<string, FakeTallyVoucher>();
  const requests: string[] = [];
  const misbehaved: Misbehaved[] = [];
  const fake: Pick<FakeTally, 'ledgers' | 'refuse' | 'misbehave'> = {
    ledgers: new Set(ledgers),
    refuse: undefined,
    misbehave: undefined,
  };

  const importEnvelope = (xml: string) => {
    const tree = parser.parse(xml) as {
      ENVELOPE?: {
        HEADER?: { TALLYREQUEST?: string };
        BODY?: {
          IMPORTDATA?: {
            REQUESTDESC?: { REPORTNAME?: string };
            REQUESTDATA?: { TALLYMESSAGE?: { VOUCHER?: Record<string, unknown> }[] } | string;
          };
        };
      };
    };
    const importData = tree.ENVELOPE?.BODY?.IMPORTDATA;
    if (
      tree.ENVELOPE?.HEADER?.TALLYREQUEST !== 'Import Data' ||
      importData?.REQUESTDESC?.REPORTNAME !== 'Vouchers'
    )
      return undefined;
    const messages =
      typeof importData.REQUESTDATA === 'object' ? (importData.REQUESTDATA.TALLYMESSAGE ?? []) : [];
    let created = 0;
    let altered = 0;
    const lineErrors: string[] = [];
    for (const message of messages) {
      const raw = message.VOUCHER as Record<string, unknown>;
      const lines = ((raw['ALLLEDGERENTRIES.LIST'] as Record<string, string>[]) ?? []).map(
        (line) => ({
          ledger: line.LEDGERNAME ?? '',
          deemedPositive: line.ISDEEMEDPOSITIVE ?? '',
          amount: line.AMOUNT ?? '',
        }),
      );
      const voucher: FakeTallyVoucher = {
        remoteId: String(raw.REMOTEID ?? ''),
        type: String(raw.VCHTYPE ?? ''),
        action: String(raw.ACTION ?? ''),
        date: String(raw.DATE ?? ''),
        number: String(raw.VOUCHERNUMBER ?? ''),
        narration: String(raw.NARRATION ?? ''),
        lines,
      };
      const unknown = lines.find((line) => !fake.ledgers.has(line.ledger));
      const refusal = fake.refuse?.(voucher);
      const amounts = lines.map((line) => paiseOf(line.amount));
      const debits = amounts.filter((paise) => paise < 0).reduce((sum, paise) => sum - paise, 0);
      const credits = amounts.filter((paise) => paise > 0).reduce((sum, paise) => sum + paise, 0);
      const sidesAgree = lines.every(
        (line, index) => (line.deemedPositive === 'Yes') === amounts[index]! < 0,
      );
      if (refusal) {
        lineErrors.push(refusal);
      } else if (unknown) {
        lineErrors.push(`Ledger '${unknown.ledger}' does not exist!`);
      } else if (amounts.some(Number.isNaN) || !sidesAgree || debits !== credits) {
        lineErrors.push(
          `Voucher totals do not match! Dr: ${(debits / 100).toFixed(2)} Dr Cr: ${(credits / 100).toFixed(2)} Cr`,
        );
      } else if (vouchers.has(voucher.remoteId)) {
        vouchers.set(voucher.remoteId, voucher);
        altered += 1;
      } else if (voucher.action === 'Alter') {
        lineErrors.push(`Voucher with REMOTEID ${voucher.remoteId} does not exist!`);
      } else {
        vouchers.set(voucher.remoteId, voucher);
        created += 1;
      }
    }
    return { created, altered, lineErrors };
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push(body);
      if (fake.misbehave) {
        void misbehave(response, fake.misbehave).then((what) => misbehaved.push(what));
        return;
      }
      const result = XMLValidator.validate(body) === true ? importEnvelope(body) : undefined;
      response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
      if (!result) {
        response.end('<RESPONSE>Unknown Request, cannot be processed</RESPONSE>');
        return;
      }
      response.end(
        [
          '<ENVELOPE><HEADER><VERSION>1</VERSION><STATUS>1</STATUS></HEADER><BODY><DATA>',
          '<IMPORTRESULT>',
          `<CREATED>${result.created}</CREATED><ALTERED>${result.altered}</ALTERED>`,
          '<DELETED>0</DELETED><LASTVCHID>0</LASTVCHID><LASTMID>0</LASTMID><COMBINED>0</COMBINED>',
          `<IGNORED>0</IGNORED><ERRORS>${result.lineErrors.length}</ERRORS><CANCELLED>0</CANCELLED>`,
          '</IMPORTRESULT>',
          ...result.lineErrors.map((text) => `<LINEERROR>${escape(text)}</LINEERROR>`),
          '</DATA></BODY></ENVELOPE>',
        ].join(''),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    vouchers,
    requests,
    get ledgers() {
      return fake.ledgers;
    },
    set ledgers(names: Set<string>) {
      fake.ledgers = names;
    },
    get refuse() {
      return fake.refuse;
    },
    set refuse(words) {
      fake.refuse = words;
    },
    get misbehave() {
      return fake.misbehave;
    },
    set misbehave(how) {
      fake.misbehave = how;
    },
    misbehaved,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
