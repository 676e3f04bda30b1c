/** The server's answers about the shop's own settings: its name, GSTIN, phones and logo. */
export const SHOP_SETTINGS_MESSAGES = {
  saved: 'Shop settings saved.',
  logoSaved: 'Logo saved.',
  logoRemoved: 'Logo removed.',
  noLogo: 'The shop has no logo.',
  companyNameRequired: 'Shop name is required.',
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters.`,
  oneLine: (field: string) => `${field} must be on one line.`,
  gstinFormat:
    'GSTIN must be 15 characters: 2 digits (the state code), the 10-character PAN, then 3 more, such as 27AAPFU0939F1ZV.',
  gstinCheckDigit:
    "This GSTIN's last character (its check digit) does not match the 14 before it: check it for a typo.",
  supportPhone:
    'Support phone may hold only digits, spaces, brackets, dashes and a + in front, 6 to 20 of them.',
  logoRequired: 'Please choose the logo file to upload.',
  logoFormat: 'The logo must be a PNG or JPEG image.',
  logoTooLarge: (kilobytes: number) =>
    `The logo is larger than ${kilobytes} KB. Please choose a smaller image.`,
  logoTooManyPixels: (width: number, height: number) =>
    `The logo is too large a picture: at most ${width} × ${height} pixels.`,
  oneLogo: 'Please upload one logo at a time.',
} as const;

/** The Shop settings screen (the owner's). */
export const SHOP_SETTINGS_TEXTS = {
  intro:
    'What the sign-in page, the top bar, printouts, receipts, the customers’ portal and the WhatsApp messages call the shop. A change shows everywhere within a few seconds.',
  loading: 'Loading shop settings',
  loadFailed: 'Error in loading the shop settings.',
  detailsHeading: 'The shop',
  companyName: 'Shop name',
  tagline: 'Tagline',
  taglineHelp: 'Under the name on the sign-in page, such as “Since 1928”. May be left empty.',
  gstin: 'GSTIN',
  gstinHelp: 'Printed on installment receipts. Leave empty if the shop has none.',
  supportPhone: 'Support phone',
  supportPhoneHelp: 'In the footer of every screen. May be left empty.',
  poweredBy: 'Powered by',
  poweredByHelp: 'In the footer of every screen. May be left empty.',
  save: 'Save',
  saving: 'Saving',
  saveFailed: 'Error in saving the shop settings.',
  logoHeading: 'Logo',
  logoIntro: (kilobytes: number) =>
    `A PNG or JPEG image of at most ${kilobytes} KB, shown on the sign-in page, in the top bar, on printouts and in the customers’ portal.`,
  noLogo: 'No logo yet.',
  currentLogo: 'The shop’s logo',
  chosenLogo: (name: string) => `The chosen logo: ${name}`,
  chooseLogo: 'Choose logo',
  uploadLogo: 'Upload logo',
  uploadingLogo: 'Uploading logo',
  uploadFailed: 'Error in uploading the logo.',
  cancelChoice: 'Cancel',
  removeLogo: 'Remove logo',
  removingLogo: 'Removing logo',
  removeFailed: 'Error in removing the logo.',
} as const;
