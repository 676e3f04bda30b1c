import Box from '@mui/material/Box';

/** Keeps a cell's content on one line (a number, a date, a mobile). */
export const unbroken = { whiteSpace: 'nowrap', overflowWrap: 'normal' } as const;

const NUMBERS = /(₹?\d[\d,./:-]*\d)/;

/**
 * A long text that may wrap, but never inside a number nor between ₹ and its amount: "83766 /
 * 40" is misread. `keep` names other runs to keep whole (a capturing pattern, e.g. a template's
 * "₹{amount}"). One inline element, so that a flex cell lays it out as one text.
 */
export function NumbersUnbroken({ text, keep = NUMBERS }: { text: string; keep?: RegExp }) {
  return (
    <Box component="span">
      {text.split(keep).map((part, index) =>
        index % 2 === 1 ? (
          <Box component="span" key={index} sx={unbroken}>
            {part}
          </Box>
        ) : (
          part
        ),
      )}
    </Box>
  );
}
