import { countOf } from './format.js';
/** The server's answers about notices to customers. */
export const NOTICE_MESSAGES = {
  templateSaved: (label: string) => `Template saved: ${label}.`,
  noticeResent: (id: number) => `Notice ${id} queued again.`,
  noSuchNotice: (id: number) => `No notice with the number ${id}.`,
  onlyFailedResent: 'Only a failed notice can be sent again.',
  panelNotConfigured: 'Save the messaging panel configuration first.',
  panelHasNoUrl: (panel: number) =>
    `Panel ${panel} has no provider address yet: ask whoever installed Kanak to set it up, or choose another panel.`,
  testMessageText: (shop: string) =>
    `Test message from ${shop}: the messaging panel is set up correctly.`,
  testMessageSent: 'Test message sent.',
  testMessageFailed: (answer: string) => `The test message was not sent: ${answer}`,
  /** Why a notice was skipped. */
  skippedNoConsent: 'The customer has not consented to WhatsApp notices.',
  skippedEventOff: 'This kind of notice is switched off on Message Templates.',
  skippedNoMobile: 'The customer has no mobile number (erased).',
  skippedNoPanel: 'No messaging panel is configured.',
  /**
   * Why an attempt failed, in the shop's words: what went wrong and what to do, never the
   * provider's status code (the server's log keeps it, for whoever installed Kanak) nor what
   * it wrote (an answer may echo the token in any spelling).
   */
  providerTimeout: (seconds: number) => `The WhatsApp panel did not answer within ${seconds} s.`,
  providerUnreachable: (code: string) =>
    `The WhatsApp panel could not be reached: check the shop's internet connection (${code}).`,
  providerRefused: (status: number) =>
    status === 401 || status === 403
      ? 'The WhatsApp panel refused the Instance Id or Token: check them on Message Configuration.'
      : status === 429
        ? 'The WhatsApp panel asked for fewer messages at a time: sending waits as long as it asked.'
        : status >= 500
          ? 'The WhatsApp panel had a fault on its side: not sent.'
          : 'The WhatsApp panel refused the message: not sent.',
  providerNotSent: 'The WhatsApp panel answered without saying the message was sent.',
  providerRedirected:
    "The WhatsApp panel's address sent the message on to another address: not followed. Ask whoever installed Kanak to check the panel's address.",
  providerAnswerTooLong: (kilobytes: number) =>
    `The WhatsApp panel's answer was longer than ${kilobytes} KB: not read.`,
  providerAccepted: 'The provider accepted the message.',
  panelSettingsInvalid:
    'The saved Instance Id or Token cannot be sent: save the messaging panel configuration again.',
} as const;

/** The Message Templates screen. */
export const TEMPLATE_TEXTS = {
  intro:
    'What customers receive on WhatsApp for each event. Switch an event off to send nothing for it. Reminders and digests go only between 9 am and 9 pm.',
  loading: 'Loading templates',
  loadFailed: 'Error in loading the message templates.',
  table: 'Message templates',
  event: 'Event',
  enabled: 'Send',
  text: 'Message',
  placeholders: 'Placeholders',
  placeholdersHint: 'Click a placeholder to put it where the cursor is.',
  preview: 'Preview',
  previewHint: 'With sample values, as a customer would read it.',
  actions: 'Edit',
  switchLabel: (label: string) => `Send: ${label}`,
  edit: (label: string) => `Edit the template: ${label}`,
  editTitle: (label: string) => `Template: ${label}`,
  save: 'Save',
  saving: 'Saving',
  cancel: 'Cancel',
  restoreDefault: 'Use the default text',
  saveFailed: 'Error in saving the template.',
  on: 'On',
  off: 'Off',
  customised: 'Changed',
  unknownPlaceholders: (keys: string[]) =>
    `Unknown placeholder${keys.length > 1 ? 's' : ''}: ${keys.map((key) => `{${key}}`).join(' ')}`,
} as const;

/** The Delivery Log screen. */
export const DELIVERY_LOG_TEXTS = {
  filters: 'Filters',
  status: 'Status',
  event: 'Event',
  any: 'Any',
  mobile: 'Customer mobile',
  from: 'From',
  to: 'To',
  search: 'Search',
  clear: 'Clear',
  table: 'Notices',
  loading: 'Loading notices',
  empty: 'No notices match these filters.',
  loadFailed: 'Could not load the delivery log. Please try again.',
  columns: {
    when: 'Queued',
    event: 'Event',
    mobile: 'Mobile',
    text: 'Message',
    status: 'Status',
    attempts: 'Attempts',
    reason: 'Reason',
    sentAt: 'Sent',
    actions: 'Actions',
  },
  resend: (id: number) => `Send notice ${id} again`,
  resendLabel: 'Send again',
  resending: 'Queuing',
  resendFailed: 'Error in queuing the notice again.',
  pageOf: (page: number, pages: number, total: number) =>
    `Page ${page} of ${pages} · ${countOf(total, 'notice', 'notices')}`,
} as const;

/** Message Configuration's test message. */
export const TEST_MESSAGE_TEXTS = {
  send: 'Send test message',
  sending: 'Sending test message',
  needsSave: 'Save the configuration first: the test message uses the saved one.',
  result: 'Test message result',
  notSent: 'The test message was not sent.',
  failed: 'Error in sending the test message.',
} as const;
