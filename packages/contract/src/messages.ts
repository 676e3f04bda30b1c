/**
 * Every fixed text of the screens, and the server's messages.
 * Two spelling slips of the spec are corrected here ("customer", "updating").
 */
import { LIMITS } from './limits.js';
import { SIGN_IN_MESSAGES } from './messages-sign-in.js';

export const MESSAGES = {
  ...SIGN_IN_MESSAGES,
  // Sign-in and session
  notAllowed: 'You are not allowed to do this.',
  goldRateSaved: (date: string) => `Gold rate for ${date} saved.`,
  goldRateCorrected: (date: string) => `Gold rate for ${date} corrected.`,
  goldRateFuture: 'The date cannot be after today: a gold rate is entered on its day or later.',
  goldRateMissing: "Enter today's gold rate first.",
  onlineRefundNoted: (paymentId: string) => `Refund of payment ${paymentId} noted.`,
  onlineRefundNotDue: 'This payment is not waiting for a refund (refunded already, or unknown).',
  goldRateFarFromLast: (carat: string, rate: string, change: number, last: string, on: string) =>
    `The ${carat} rate ${rate} is ${Math.abs(change)}% ${change > 0 ? 'above' : 'below'} the last one, ${last} on ${on}. Check it, then confirm to save it.`,
  goldRateOutsideBand: (carat: string, rate: string, low: string, high: string, days: number) =>
    `The ${carat} rate ${rate} a gram is outside the usual ${low} to ${high}, and no rate was entered in the ${days} days before it. Check it, then confirm to save it.`,
  schemePlanSaved: (code: string) => `Plan ${code} saved.`,
  schemePlanNotFound: (code: string) => `No scheme plan has the code ${code}.`,
  schemePlanInactive: (code: string) => `Plan ${code} is no longer offered.`,
  schemePlanStdFixed:
    'Plan STD is the standard scheme: its installments and bonus were set when Kanak was installed and cannot be edited here; ask whoever installed Kanak to change them.',
  schemePlanInUse: (code: string, schemes: number) =>
    `Plan ${code} has ${schemes} scheme(s) started on it, which keep its terms: only its name and whether it is offered can change. Save the new terms under a new code.`,
  schemePlanMinAmount: (code: string, min: string) =>
    `Plan ${code} needs an installment of at least ${min}.`,
  goldRateRangeTooLong: (days: number) =>
    `The from and to dates can be at most ${days} days apart.`,
  changeTemporaryPassword: 'Please change your temporary password first.',
  lastOwner: 'The shop must keep an active owner: this is the last one.',
  staffAdded: (username: string) => `Staff account ${username} added.`,
  staffUpdated: (username: string) => `Staff account ${username} updated.`,
  staffDisabled: (username: string) =>
    `Staff account ${username} disabled; their sessions have ended.`,
  staffEnabled: (username: string) => `Staff account ${username} enabled.`,
  staffPasswordReset: (username: string) =>
    `Password of ${username} reset; their sessions have ended.`,
  staffAddedShownOnce:
    'This staff account was already added; its temporary password is shown only once. Reset the password if it was lost.',
  staffPasswordResetShownOnce:
    'This password was already reset; the temporary password is shown only once. Reset it again if it was lost.',
  branchSaved: (code: string) => `Branch ${code} saved.`,
  noSuchBranch: (code: string) => `No branch with the code ${code}.`,
  loggedOut: 'Logged out.',
  accountLocked: (minutes: number) =>
    `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,

  // My Profile
  provideNewPassword: 'Please provide new password.',
  provideOldPassword: 'Please provide old password.',
  updateUserFailed: 'Error in updating user.',
  oldPasswordIncorrect: 'Old password is incorrect.',
  passwordLength: 'New password must be 8 to 15 characters.',
  passwordMustDiffer: 'New password must be different from the old password.',
  passwordTooCommon: 'This password is too common and easy to guess. Please choose another.',
  passwordUpdated: 'Password updated successfully.',
  passwordAlreadyUpdated:
    'Your password was already changed by this request. Sign in with the new password.',
  ownProfileOnly: 'You can only update your own profile.',

  // Mobile Integration
  imageUploaded: 'Image uploaded successfully',
  imageUploadFailed: 'Error in uploading image',
  imageDeleted: 'Image deleted.',
  imageDeleteFailed: 'Error in deleting image.',
  maxImages: 'Maximum 5 images can be uploaded.',
  noBannerImages: 'No images found. Upload images for banner.',
  noCatalogueImages: 'No images found. Upload images for e-catalogue.',
  imageTypeInvalid: 'Image type must be banner or card.',
  imageRequired: 'Please choose an image file to upload.',
  imageTooLarge: 'The image is larger than 5 MB. Please choose a smaller image.',
  imageFormat: 'Only PNG, JPEG, GIF or WebP images can be uploaded.',
  imageTooManyPixels:
    'The image is larger than 40 megapixels (for example 8000 × 5000). Please choose a smaller image.',
  gifTooManyFrames: (frames: number) =>
    `The GIF has more than ${frames} frames. Please choose a shorter animation.`,
  gifTooManyAnimationPixels:
    'The animation is too large: its frames together hold more than 200 megapixels (for example 100 frames of 2000 × 1000). Please choose a smaller or shorter animation.',
  oneImageAtATime: 'Please upload one image at a time.',
  invalidUpload: 'The upload could not be read. Please choose the image again.',
  imageNotFound: 'Image not found.',
  imagePathMismatch: 'The image path does not match this image.',

  // Loyalty points and statement
  requiredFields: 'Please ensure all required fields are completed before proceeding.',
  pointsUpdated: 'Loyalty points updated successfully.',
  pointsUpdateFailed: 'Error in updating Loyalty points.',
  statementUpdated: 'Statement successfully updated.',
  statementUpdateFailed: 'Error in updating statement.',
  noStatement: 'No statement generated yet.',
  pointsRedeemed: 'Points redeemed.',
  redeemBelowMinimum: (min: number) => `At least ${min} points must be redeemed at a time.`,
  insufficientPoints: (balance: number) => `Insufficient points. Available balance: ${balance}.`,
  pointsRecordsDisagree:
    "This customer's points records do not add up, so nothing was changed. Please ask the office to check the customer's points.",
  /**
   * Names no customer by their mobile number: a refusal is kept whole in the replay store.
   * `movedFrom`: the balance is that of the customer the entry is being moved away from.
   */
  balanceWouldGoNegative: (movedFrom: boolean) =>
    movedFrom
      ? 'This change would leave the points balance of the customer the entry is moved from below zero: points from this entry have already been used.'
      : "This change would leave this customer's points balance below zero: points from this entry have already been used.",

  // Customer profile
  enterMobile: 'Please enter 10 digits mobile no before proceeding.',
  mobileLength: 'Mobile number should be of 10 digits.',
  mobileNotIndian: 'Mobile number must be an Indian mobile number, starting with 6, 7, 8 or 9.',
  enterName: 'Please enter name before proceeding.',
  nameOnOneLine: (field: string) =>
    `${field} must be on one line, without tabs or hidden characters.`,
  /** Said of any dotted word a chat app could make a link of; real names joined by a dot too. */
  nameWithLink: (field: string) =>
    `${field} cannot contain a web address or link. If a dot joins two words, put a space after the dot: write "Mohd. Irfan", not "Mohd.Irfan".`,
  saveFailed: 'Error in saving',
  noExportData: 'No data found to export',
  exportFailed: 'Error in exporting customer data.',
  exportLinkInvalid:
    'This download link is not valid or was already used. Please press Export All again.',
  exportLinkExpired: 'This download link has expired. Please press Export All again.',
  mobileTaken: 'Mobile number already belongs to another customer.',
  customerNotFound: 'Customer not found.',
  customerSaved: 'Customer profile saved.',
  dobInFuture: 'Date of Birth cannot be in the future.',
  aadhaarDigits: 'Aadhaar must be 12 digits, or empty.',
  aadhaarInvalid: 'Aadhaar: this is not a valid Aadhaar number. Please check the 12 digits.',
  entryDateInFuture: 'Date cannot be in the future.',
  entryNotFound: 'Statement entry not found.',
  onlyManualEntries: 'Only manually entered rows can be edited.',

  // Message configuration
  panelLoadRefused: 'Failed to get panel configuration',
  panelLoadFailed: 'Error in getting panel configuration.',
  panelSaveRefused: 'Failed to update panel configuration',
  panelSaveFailed: 'Error in updating panel configuration',
  panelSaved: 'Panel configuration updated successfully.',

  // Schemes
  schemesLoadFailed: 'Error in getting customer previous schemes.',
  selectCustomer: 'Please select customer before proceeding.',
  enterAmount: 'Please enter amount before proceeding.',
  previousSchemePending:
    'The previous scheme installment must be completed before initiating a new scheme.',
  schemeGenerateFailed: 'Error in generating scheme.',
  noActiveSchemes: 'Currently, there are no active schemes.',
  deleteSchemeQuestion:
    'Are you sure you want to cancel this scheme? Please note that once canceled, this action cannot be undone.',
  panDialogText: 'For schemes valued at ₹16,000 or above, a PAN is mandatory to proceed.',
  panFormat: 'PAN must be a 10-character alphanumeric code.',
  panRequired: 'PAN is mandatory for schemes of ₹16,000 or above.',
  panVerifyFailed: 'Error in verifying PAN.',
  panUpdateRefused: 'Error in updating PAN, please retry.',
  panUpdateFailed: 'Error in updating PAN.',
  schemeDeleteFailed: 'Error in deleting this scheme.',
  schemeIdRequired: 'Scheme ID cannot be blank.',
  /** Letters or signs typed as a Scheme ID: not blank, so not the spec's blank warning. */
  schemeIdDigits: 'A Scheme ID is a number, e.g. 1024: letters and signs are not part of it.',
  schemeNotFound: 'Scheme not found.',
  statementFailed: 'Error in generating statement.',
  noResults: 'No results yet',
  noSummaryResults: 'No results yet.',
  noMatchingRecords: 'No records match the specified filters.',
  summaryFailed: 'Error in generating summary.',
  summaryTooManyRows: (most: number) =>
    `More than ${most.toLocaleString('en-IN')} schemes match. Narrow the dates or use the pages.`,
  schemeGenerated: (id: number) => `Scheme ${id} generated.`,
  customerMismatch: 'The customer details do not match. Search the customer again.',
  startInFuture: 'Start date cannot be in the future.',
  backdateTooFar: (role: string, entry: string, earliest: string) =>
    `A ${role} can date ${entry} at most ${LIMITS.backdateDays} days back (from ${earliest}). Ask the owner to record an older one.`,
  backdateReasonRequired: (earliest: string) =>
    `A date before ${earliest} needs a reason: say why it is entered late.`,
  backdateReasonLength: `Reason must be ${LIMITS.backdateReasonMinLength} to ${LIMITS.narrationMaxLength} characters.`,
  startAlreadyMatured: (start: string, maturity: string) =>
    `A scheme started on ${start} would have matured on ${maturity}, before today. Choose a later start date.`,
  onlyInactiveCancellable: 'Only an inactive scheme without installments can be cancelled.',
  schemeCancelled: 'Scheme cancelled.',
  panSaved: 'PAN saved.',
  onlyInactiveActivatable: 'Only an inactive scheme can be activated.',
  schemeActivated: (id: number) => `Scheme ${id} activated.`,
  onlyActiveInstallments: 'Installments can be added only to an active scheme.',
  installmentRecorded: (receipt: string) => `Installment recorded. Receipt ${receipt}.`,
  installmentOutsideTerm: (start: string, end: string) =>
    `The installment date must be within the scheme's term, ${start} to ${end}.`,
  installmentMonthTaken: (month: string) => `An installment for ${month} is already recorded.`,
  advanceBeforeThisMonth: (month: string) =>
    `The installment for ${month} is not yet paid. Take it first; an advance is for the month after a paid one.`,
  advanceAlreadyTaken: (month: string) =>
    `The installment for ${month} is already recorded. Only the next month can be taken in advance.`,
  advancePastTerm: (month: string, maturity: string) =>
    `An advance for ${month} would fall after the scheme's maturity date, ${maturity}.`,
  allInstallmentsPaid: (count: number) => `All ${count} installments are already paid.`,
  cashLimit: (limit: string, taken: string) =>
    `Cash received for one scheme must stay below ${limit} (Income-tax Act, section 269ST); ${taken} is already in cash. Take this installment by another mode.`,
  notYetClosable: (count: number, maturity: string) =>
    `This scheme can be closed when all ${count} installments are paid or after its maturity date, ${maturity}.`,
  onlyActiveClosable: 'Only an active scheme can be closed.',
  schemeClosed: (id: number) => `Scheme ${id} closed.`,

  // Generic
  notFound: 'Not found.',
  serverError: 'Something went wrong on the server. Please try again.',
  databaseUnavailable: 'The database is not reachable right now. Please try again shortly.',
  idempotencyKeyRequired: 'Idempotency-Key header is required for this request.',
  idempotencyKeyReused: 'This request key was already used for a different request.',
  idempotencyInterrupted:
    'This request was interrupted and may not have been saved. Please check before doing it again.',
  serverStopping: 'The server is restarting. Please try again in a moment.',
  metricsTokenRequired: "The metrics need this server's metrics token as a bearer token.",
  databaseNotMigrated:
    'The database is missing changes this version of the server needs. Restart the server to apply them.',
  bodyTooLarge: 'The request is too large.',
  invalidJson: 'The request body is not valid JSON.',
  unsupportedContentType: 'This content type is not accepted here.',
} as const;
