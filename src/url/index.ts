/** URL policy and srcset handling for URL-valued attributes and CSS url()s. */
export {
  type UrlContext,
  type UrlDecision,
  type UrlForm,
  type UrlKind,
  type UrlPolicy,
  DEFAULT_DATA_MIME_TYPES,
  checkUrl,
  checkUrlList,
  cleanUrl,
  cssUrlRewriter,
  dataUrlMimeType,
  relativeForm,
  urlKind,
  urlScheme,
} from './url-policy.js';
export {
  type SrcsetCandidate,
  type SrcsetFilterResult,
  type SrcsetParseResult,
  filterSrcset,
  parseSrcset,
  serializeSrcset,
  srcsetSafeUrl,
} from './srcset.js';
