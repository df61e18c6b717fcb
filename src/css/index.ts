/** The CSS toolkit: CSS Syntax 3 tokenizer/parser/serializer, declaration filtering, stylesheet scoping. */
export { type CssToken, type CssTokenType, CssTokenizer, preprocess, tokenize } from './tokenizer.js';
export {
  type AtRule,
  type BlockItem,
  type ComponentValue,
  type Declaration,
  type FunctionValue,
  type QualifiedRule,
  type Rule,
  type SimpleBlock,
  groupComponentValues,
  parseBlockContents,
  parseCommaSeparatedList,
  parseComponentValues,
  parseDeclaration,
  parseDeclarationList,
  parseStylesheet,
  splitOnCommas,
} from './parser.js';
export {
  blockItemTokens,
  declarationTokens,
  flattenComponentValues,
  serializeComponentValues,
  serializeDeclarations,
  serializeIdent,
  serializeRules,
  serializeString,
  serializeTokens,
} from './serialize.js';
export {
  type DeclarationFilterOptions,
  type DeclarationFilterResult,
  type DeclarationInfo,
  type Dropped,
  type Removal,
  type UrlContext as CssUrlContext,
  checkValue,
  containsFunction,
  filterDeclaration,
  filterDeclarationList,
  filterDeclarations,
} from './declarations.js';
export { type ScopableAtRule, type ScopeOptions, type ScopeRemoval, type ScopeResult, scopeStylesheet } from './scope.js';
