/**
 * The WICG Sanitizer API (setHTML's sanitizer) on htmlsift's tree, as Chromium ships it.
 */
export {
  Sanitizer,
  canonicalizeConfig,
  configValidityError,
  configForGet,
  getSanitizerInstanceFromOptions,
  removeUnsafeFromConfig,
  type SanitizerConfigResult,
  type SetHTMLOptions,
} from './config.js';
export {
  compileConfig,
  containsJavascriptUrl,
  sanitizeCore,
  sanitizeFragmentLikeSetHTML,
  sanitizeNode,
  sanitizeWith,
  setHTMLSkipsContext,
  type CompiledConfig,
  type SanitizerSpec,
} from './sanitize.js';
export { builtinSafeDefaultConfig } from './builtins.js';
export type * from './types.js';
export type { SanitizerName } from './names.js';
export { setHTMLLike, parseHTMLLike, declarativeShadowRootTemplates, type SetHTMLLikeOptions } from './set-html.js';
