/**
 * A text field's slot props for a value the screen fills itself (a chosen customer's mobile
 * number and name): read-only, and no stop for Tab, which goes from the search straight on to
 * what staff type next. Screen readers still read it with the form.
 */
export const SHOWN_ONLY = {
  htmlInput: { readOnly: true, tabIndex: -1 },
  inputLabel: { shrink: true },
} as const;
