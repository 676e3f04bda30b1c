/**
 * What other parts of the server may use of the content module; the rest is its own. The
 * image checks judge a file by its bytes (magic numbers, declared pixels), as the app's
 * images are judged, for the shop's logo too.
 */
export { judgeImage } from './content.service.js';
