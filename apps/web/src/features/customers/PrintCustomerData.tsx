import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  CONSENT_LABELS,
  CONSENT_PURPOSES,
  DATA_RIGHTS_TEXTS,
  formatSlashDate,
  type CustomerDataExport,
} from '@kanak/contract';
import { PRINT_CELL_SX, PRINT_NUMBER_SX, PrintFrame } from '../../components/PrintFrame';
import { formatRecordedAt } from './CustomerDataRights';

const texts = DATA_RIGHTS_TEXTS;
const date = (iso: string) => (iso ? formatSlashDate(iso) : '');

/** The customer's copy of everything held about them, on paper. */
export function PrintCustomerData({ data }: { data: CustomerDataExport }) {
  const { profile } = data;
  const lines: [string, string][] = [
    ['Customer id', String(profile.custid)],
    ['Name', profile.custname],
    ['Mobile', profile.mobileno],
    ['Email', profile.email],
    [
      'Address',
      [profile.address, profile.city, profile.state, profile.pincode].filter(Boolean).join(', '),
    ],
    ['Date of birth', date(profile.dob)],
    ['Anniversary', date(profile.doa)],
    ['Aadhaar', profile.aadhaar],
    ['PAN', profile.pan],
    ['Points balance', String(profile.points)],
    ...CONSENT_PURPOSES.map((purpose): [string, string] => [
      CONSENT_LABELS[purpose],
      data.consents[purpose] ? texts.granted : texts.withdrawn,
    ]),
  ];
  return (
    <PrintFrame testId="print-customer-data">
      <Typography component="h3" variant="h6" sx={{ mt: 2, color: '#000' }}>
        {texts.printTitle} ({formatRecordedAt(data.exportedAt)})
      </Typography>
      <table>
        <tbody>
          {lines.map(([label, value]) => (
            <tr key={label}>
              <Box component="th" scope="row" sx={PRINT_CELL_SX}>
                {label}
              </Box>
              <Box component="td" sx={PRINT_CELL_SX}>
                {value}
              </Box>
            </tr>
          ))}
        </tbody>
      </table>
      <Section title={texts.consentHistory}>
        <Rows
          head={['When', 'Purpose', 'Choice', 'By', 'How']}
          rows={data.consentHistory.map((event) => [
            formatRecordedAt(event.recordedAt),
            CONSENT_LABELS[event.purpose],
            event.granted ? texts.granted : texts.withdrawn,
            event.recordedBy,
            `${event.method}, ${texts.noticeVersion(event.noticeVersion)}`,
          ])}
          empty={texts.noHistory}
        />
      </Section>
      <Section title="Points ledger">
        <Rows
          head={['Date', 'Narration', 'Credit', 'Debit']}
          numbers={[2, 3]}
          rows={data.pointsLedger.map((entry) => [
            date(entry.date),
            entry.narration,
            String(entry.credit),
            String(entry.debit),
          ])}
          empty="No points entries."
        />
      </Section>
      <Section title="Schemes and installments">
        <Rows
          head={['Scheme', 'Start', 'Maturity', 'Amount', 'Receipt', 'Paid on', 'Paid', 'Mode']}
          numbers={[3, 6]}
          rows={data.schemes.flatMap((scheme) => {
            const head = [
              `${scheme.schemeId} (${scheme.status})`,
              date(scheme.startDate),
              date(scheme.maturityDate),
              String(scheme.amount),
            ];
            if (scheme.installments.length === 0) return [[...head, '', '', '', '']];
            return scheme.installments.map((installment, index) => [
              ...(index === 0 ? head : ['', '', '', '']),
              String(installment.receiptNo),
              date(installment.paidOn),
              String(installment.amount),
              installment.mode,
            ]);
          })}
          empty="No schemes."
        />
      </Section>
      <Section title="Notices sent">
        <Rows
          head={['Sent', 'Event', 'Text']}
          rows={data.noticesSent.map((notice) => [
            formatRecordedAt(notice.sentAt),
            notice.event,
            notice.text,
          ])}
          empty={texts.noticesSentNone}
        />
      </Section>
    </PrintFrame>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <Typography component="h4" variant="subtitle1" sx={{ mt: 2, color: '#000' }}>
        {title}
      </Typography>
      {children}
    </>
  );
}

function Rows({
  head,
  rows,
  empty,
  numbers = [],
}: {
  head: string[];
  rows: string[][];
  empty: string;
  numbers?: number[];
}) {
  if (rows.length === 0) return <Typography>{empty}</Typography>;
  const sx = (index: number) => (numbers.includes(index) ? PRINT_NUMBER_SX : PRINT_CELL_SX);
  return (
    <table>
      <thead>
        <tr>
          {head.map((label, index) => (
            <Box key={label} component="th" sx={sx(index)}>
              {label}
            </Box>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, rowIndex) => (
          <tr key={rowIndex}>
            {row.map((cell, index) => (
              <Box key={index} component="td" sx={sx(index)}>
                {cell}
              </Box>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
