export const API_PREFIX = '/api';

/**
 * What the sign-in page calls, in a file of its own: the page's JavaScript (which has a size
 * limit) then carries these, not every path of the app. API_PATHS holds them too.
 */
export const SIGN_IN_API_PATHS = {
  health: '/health',
  branding: '/app/branding',
  content: '/app/content',
  image: '/app/images/:id',
  login: '/login/verify',
  logout: '/logout',
  me: '/me',
} as const;
