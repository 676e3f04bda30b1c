/**
 * Typed errors that services throw; the one error handler in app.ts turns each into the
 * `{ success: false, message }` envelope with its HTTP status.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** A word a screen recognises the refusal by (the contract's), sent beside the message. */
    readonly code?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the input breaks a rule; the message names the field and the rule. */
export class InvalidInputError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 401: no, bad or outdated token; or wrong credentials at sign-in. */
export class UnauthorizedError extends AppError {
  constructor(message: string) {
    super(401, message);
  }
}

/** 403: signed in, but this is not yours. */
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}

/** 404: the record does not exist. */
export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}

/** 409: a business rule refused the change. */
export class ConflictError extends AppError {
  constructor(message: string, code?: string) {
    super(409, message, code);
  }
}

/** 429: too many attempts. */
export class TooManyRequestsError extends AppError {
  constructor(message: string) {
    super(429, message);
  }
}

/** 413: the upload is larger than the limit. */
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}

/** 415: the bytes are not one of the accepted image formats. */
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}

/**
 * 409: the stored records disagree with each other (a fault in the data, not in the request).
 * Nothing is changed; the handler logs `fault` (ids and figures, no personal data) as an
 * error for someone to look into.
 */
export class DataFaultError extends AppError {
  constructor(
    message: string,
    readonly fault: Record<string, unknown>,
  ) {
    super(409, message);
  }
}
