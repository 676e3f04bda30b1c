import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/**
 * Tally's XML import format, as TallyPrime's "Import Data" reads it: an ENVELOPE whose
 * REQUESTDESC names the Vouchers report and the company, and whose REQUESTDATA holds one
 * TALLYMESSAGE per voucher. Tally's conventions: dates YYYYMMDD; a debit line has
 * ISDEEMEDPOSITIVE Yes and a negative AMOUNT, a credit line No and a positive one; amounts in
 * rupees with two decimals. Text goes through the XML builder, which escapes it.
 */

export interface TallyLine {
  ledger: string;
  /** Integer paise, always positive; `debit` says which side. */
  paise: number;
  debit: boolean;
}

export interface TallyVoucher {
  /** Stable for the same receipt, closing or month: Tally alters the voucher it names. */
  remoteId: string;
  type: 'Receipt' | 'Journal';
  /** YYYY-MM-DD. */
  date: string;
  number: string;
  narration: string;
  lines: TallyLine[];
}

/** Create for a voucher Tally has not had from Kanak, Alter for one it has. */
export type TallyAction = 'Create' | 'Alter';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
});

/**
 * XML 1.0's characters (its Char production): anything else (control characters, unpaired
 * surrogates, U+FFFE/U+FFFF) cannot be carried at all, even escaped, so a name typed with one
 * still imports, without it.
 */
const isXmlChar = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  code >= 0x10000;
export const xmlText = (text: string) =>
  Array.from(text)
    .filter((char) => isXmlChar(char.codePointAt(0)!))
    .join('');

/** Paise as Tally's rupees: `1234.50`. */
export function rupees(paise: number): string {
  const whole = Math.abs(paise);
  const text = `${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
  return paise < 0 ? `-${text}` : text;
}

/** `2026-11-05` as Tally's `20261105`. */
export const tallyDate = (isoDate: string) => isoDate.replaceAll('-', '');

/** The file's opening, up to where the vouchers go. */
export function envelopeStart(company: string): string {
  const staticVariables = company ? { SVCURRENTCOMPANY: xmlText(company) } : '';
  const head = builder.build({
    HEADER: { TALLYREQUEST: 'Import Data' },
    BODY: {
      IMPORTDATA: {
        REQUESTDESC: { REPORTNAME: 'Vouchers', STATICVARIABLES: staticVariables },
        REQUESTDATA: { MARK: '' },
      },
    },
  }) as string;
  // The builder closes REQUESTDATA; the vouchers stream in where the mark is. (Each voucher
  // starts at the left margin: indenting a large file line by line costs more than it helps.)
  const opening = head.slice(0, head.indexOf('<MARK>')).trimEnd();
  return `<?xml version="1.0" encoding="UTF-8"?>\n<ENVELOPE>\n${opening}\n`;
}

export const ENVELOPE_END = '</REQUESTDATA>\n</IMPORTDATA>\n</BODY>\n</ENVELOPE>\n';

/** One voucher as its TALLYMESSAGE. */
export function voucherXml(voucher: TallyVoucher, action: TallyAction = 'Create'): string {
  return builder.build({
    TALLYMESSAGE: {
      '@_xmlns:UDF': 'TallyUDF',
      VOUCHER: {
        '@_REMOTEID': voucher.remoteId,
        '@_VCHTYPE': voucher.type,
        '@_ACTION': action,
        '@_OBJVIEW': 'Accounting Voucher View',
        DATE: tallyDate(voucher.date),
        EFFECTIVEDATE: tallyDate(voucher.date),
        VOUCHERTYPENAME: voucher.type,
        VOUCHERNUMBER: xmlText(voucher.number),
        PERSISTEDVIEW: 'Accounting Voucher View',
        NARRATION: xmlText(voucher.narration),
        'ALLLEDGERENTRIES.LIST': voucher.lines.map((line) => ({
          LEDGERNAME: xmlText(line.ledger),
          ISDEEMEDPOSITIVE: line.debit ? 'Yes' : 'No',
          AMOUNT: rupees(line.debit ? -line.paise : line.paise),
        })),
      },
    },
  }) as string;
}

export interface TallyImportResult {
  created: number;
  altered: number;
  errors: number;
  lineErrors: string[];
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (name) => name === 'LINEERROR',
});

/**
 * Tally's answer to an import: its IMPORTRESULT (TallyPrime) or RESPONSE (older releases) with
 * CREATED, ALTERED, ERRORS and a LINEERROR per refused voucher. Undefined when the answer holds
 * neither.
 */
export function parseImportResult(xml: string): TallyImportResult | undefined {
  let tree: unknown;
  try {
    tree = parser.parse(xml);
  } catch {
    return undefined;
  }
  const result = findResult(tree);
  if (!result) return undefined;
  const count = (value: unknown) => {
    const number = Number(typeof value === 'string' ? value.trim() : value);
    return Number.isInteger(number) && number >= 0 ? number : 0;
  };
  const lineErrors = findAll(tree, 'LINEERROR').map((text) => String(text).trim());
  return {
    created: count(result.CREATED),
    altered: count(result.ALTERED),
    errors: Math.max(count(result.ERRORS), lineErrors.length),
    lineErrors,
  };
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function findResult(tree: unknown): Node | undefined {
  if (Array.isArray(tree)) {
    for (const item of tree) {
      const found = findResult(item);
      if (found) return found;
    }
    return undefined;
  }
  if (!isNode(tree)) return undefined;
  if ('CREATED' in tree || 'ERRORS' in tree) return tree;
  for (const child of Object.values(tree)) {
    const found = findResult(child);
    if (found) return found;
  }
  return undefined;
}

function findAll(tree: unknown, name: string): unknown[] {
  if (Array.isArray(tree)) return tree.flatMap((item) => findAll(item, name));
  if (!isNode(tree)) return [];
  return Object.entries(tree).flatMap(([key, value]) =>
    key === name ? [value].flat() : findAll(value, name),
  );
}
