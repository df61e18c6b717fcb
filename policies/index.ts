/**
 * htmlsift's built-in policies (package entry `htmlsift/policies`):
 *  - `comment` / `commentPolicy({ images })`: user comments;
 *  - `paste`: clipboard HTML from Word, Google Docs, LibreOffice and browsers, Word lists rebuilt;
 *  - `email` / `sanitizeEmail(input, { proxyImage, resolveCid, container, charset })`: HTML email in a container.
 * Each is a plain `Policy`: use it with `sanitize(html, { policy })`, or change it with `extendPolicy`.
 */
export { comment, commentPolicy, type CommentPolicyOptions } from './comment.js';
export { paste, pastePolicy, type PastePolicyOptions } from './paste.js';
export { email, emailPolicy, sanitizeEmail, EMAIL_STYLE_PROPERTIES, type EmailOptions, type SanitizeEmailOptions, type SanitizedEmail } from './email.js';
export { extendPolicy } from '../src/policy/index.js';
