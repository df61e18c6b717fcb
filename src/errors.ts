/**
 * Parse errors, as the HTML standard names them ("parse errors" section of the parsing chapter).
 *
 * Parse errors never stop parsing: the standard defines the recovery for each. They are reported
 * to the caller's `onError` callback, if any, and cost nothing when no callback is given.
 *
 * Inside the parser an error is a `ParseErrorCode` and an offset (a `ParseErrorSink` call); the code's name
 * and the line and column are made only on the public `onError` path (`parseErrorReporter`), so a bundle
 * that never reports errors (e.g. `sanitize`) carries neither the names nor the line computation.
 */

/**
 * The parse errors the tokenizer and the tree builder report. A code's name (`CODE_NAMES`) is its member's
 * name in kebab-case (`EofInTag` is `eof-in-tag`; `AdoptionAgency1_2` is `adoption-agency-1.2`).
 */
export enum ParseErrorCode {
  // Tokenizer errors: the standard's codes (13.2.2 "Parse errors").
  AbruptClosingOfEmptyComment,
  AbruptDoctypePublicIdentifier,
  AbruptDoctypeSystemIdentifier,
  AbsenceOfDigitsInNumericCharacterReference,
  CdataInHtmlContent,
  CharacterReferenceOutsideUnicodeRange,
  ControlCharacterInInputStream,
  ControlCharacterReference,
  DisallowedProcessingInstructionTarget,
  DuplicateAttribute,
  EndTagWithAttributes,
  EndTagWithTrailingSolidus,
  EofBeforeTagName,
  EofInCdata,
  EofInComment,
  EofInDoctype,
  EofInProcessingInstruction,
  EofInScriptHtmlCommentLikeText,
  EofInTag,
  IncorrectlyClosedComment,
  IncorrectlyOpenedComment,
  InvalidCharacterSequenceAfterDoctypeName,
  InvalidFirstCharacterOfProcessingInstructionTarget,
  InvalidFirstCharacterOfTagName,
  InvalidProcessingInstructionTarget,
  MissingAttributeValue,
  MissingDoctypeName,
  MissingDoctypePublicIdentifier,
  MissingDoctypeSystemIdentifier,
  MissingEndTagName,
  MissingQuoteBeforeDoctypePublicIdentifier,
  MissingQuoteBeforeDoctypeSystemIdentifier,
  MissingSemicolonAfterCharacterReference,
  MissingWhitespaceAfterDoctypePublicKeyword,
  MissingWhitespaceAfterDoctypeSystemKeyword,
  MissingWhitespaceBeforeDoctypeName,
  MissingWhitespaceBetweenAttributes,
  MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
  NestedComment,
  NoncharacterCharacterReference,
  NoncharacterInInputStream,
  NullCharacterReference,
  SurrogateCharacterReference,
  SurrogateInInputStream,
  UnexpectedCharacterAfterDoctypeSystemIdentifier,
  UnexpectedCharacterInAttributeName,
  UnexpectedCharacterInUnquotedAttributeValue,
  UnexpectedEqualsSignBeforeAttributeName,
  UnexpectedNullCharacter,
  UnexpectedSolidusInTag,
  UnknownNamedCharacterReference,
  // Tree-construction errors (no codes in the standard; html5lib's style).
  AdoptionAgency1_2,
  AdoptionAgency1_3,
  AdoptionAgency4_4,
  EndTagTooEarly,
  EofInTemplate,
  EofInText,
  ExpectedDoctypeButGotChars,
  ExpectedDoctypeButGotEndTag,
  ExpectedDoctypeButGotEof,
  ExpectedDoctypeButGotStartTag,
  NonVoidHtmlElementStartTagWithTrailingSolidus,
  UnexpectedCellInTableBody,
  UnexpectedCharAfterAfterFrameset,
  UnexpectedCharAfterFrameset,
  UnexpectedCharInFrameset,
  UnexpectedCharacterInTable,
  UnexpectedDoctype,
  UnexpectedEndTag,
  UnexpectedEndTagBeforeHtml,
  UnexpectedEndTagP,
  UnexpectedEndTagTreatedAs,
  UnexpectedFormInTable,
  UnexpectedHiddenInputInTable,
  UnexpectedHtmlElementInForeignContent,
  UnexpectedInputInSelect,
  UnexpectedSelectInSelect,
  UnexpectedStartTag,
  UnexpectedStartTagIgnored,
  UnexpectedStartTagImpliesEndTag,
  UnexpectedStartTagOutOfMyHead,
  UnexpectedStartTagTreatedAs,
  UnexpectedToken,
  UnexpectedTokenAfterAfterBody,
  UnexpectedTokenAfterAfterFrameset,
  UnexpectedTokenAfterBody,
  UnexpectedTokenAfterFrameset,
  UnexpectedTokenInColumnGroup,
  UnexpectedTokenInFrameset,
  UnexpectedTokenInHeadNoscript,
  UnexpectedTokenInTable,
  UnknownDoctype,
}

export interface ParseError {
  /** The standard's error code, e.g. `eof-in-tag`, `unexpected-null-character`. */
  code: string;
  /** 1-based line of the input position the error refers to. */
  line: number;
  /** 1-based column (in UTF-16 code units) of that position. */
  column: number;
  /** 0-based offset (in UTF-16 code units) of that position in the input string as given. */
  offset: number;
}

export type ParseErrorHandler = (error: ParseError) => void;

/** How the tokenizer reports a parse error: its code, and its offset in `input` (the input as given). */
export type ParseErrorSink = (code: ParseErrorCode, offset: number, input: string) => void;

/** The codes' names, in `ParseErrorCode` order (a test checks them against the members' names). */
const CODE_NAMES = (
  'abrupt-closing-of-empty-comment abrupt-doctype-public-identifier abrupt-doctype-system-identifier ' +
  'absence-of-digits-in-numeric-character-reference cdata-in-html-content ' +
  'character-reference-outside-unicode-range control-character-in-input-stream ' +
  'control-character-reference disallowed-processing-instruction-target duplicate-attribute ' +
  'end-tag-with-attributes end-tag-with-trailing-solidus eof-before-tag-name eof-in-cdata ' +
  'eof-in-comment eof-in-doctype eof-in-processing-instruction eof-in-script-html-comment-like-text ' +
  'eof-in-tag incorrectly-closed-comment incorrectly-opened-comment ' +
  'invalid-character-sequence-after-doctype-name ' +
  'invalid-first-character-of-processing-instruction-target invalid-first-character-of-tag-name ' +
  'invalid-processing-instruction-target missing-attribute-value missing-doctype-name ' +
  'missing-doctype-public-identifier missing-doctype-system-identifier missing-end-tag-name ' +
  'missing-quote-before-doctype-public-identifier missing-quote-before-doctype-system-identifier ' +
  'missing-semicolon-after-character-reference missing-whitespace-after-doctype-public-keyword ' +
  'missing-whitespace-after-doctype-system-keyword missing-whitespace-before-doctype-name ' +
  'missing-whitespace-between-attributes ' +
  'missing-whitespace-between-doctype-public-and-system-identifiers nested-comment ' +
  'noncharacter-character-reference noncharacter-in-input-stream null-character-reference ' +
  'surrogate-character-reference surrogate-in-input-stream ' +
  'unexpected-character-after-doctype-system-identifier unexpected-character-in-attribute-name ' +
  'unexpected-character-in-unquoted-attribute-value unexpected-equals-sign-before-attribute-name ' +
  'unexpected-null-character unexpected-solidus-in-tag unknown-named-character-reference ' +
  'adoption-agency-1.2 adoption-agency-1.3 adoption-agency-4.4 end-tag-too-early eof-in-template ' +
  'eof-in-text expected-doctype-but-got-chars expected-doctype-but-got-end-tag ' +
  'expected-doctype-but-got-eof expected-doctype-but-got-start-tag ' +
  'non-void-html-element-start-tag-with-trailing-solidus unexpected-cell-in-table-body ' +
  'unexpected-char-after-after-frameset unexpected-char-after-frameset unexpected-char-in-frameset ' +
  'unexpected-character-in-table unexpected-doctype unexpected-end-tag unexpected-end-tag-before-html ' +
  'unexpected-end-tag-p unexpected-end-tag-treated-as unexpected-form-in-table ' +
  'unexpected-hidden-input-in-table unexpected-html-element-in-foreign-content ' +
  'unexpected-input-in-select unexpected-select-in-select unexpected-start-tag ' +
  'unexpected-start-tag-ignored unexpected-start-tag-implies-end-tag ' +
  'unexpected-start-tag-out-of-my-head unexpected-start-tag-treated-as unexpected-token ' +
  'unexpected-token-after-after-body unexpected-token-after-after-frameset unexpected-token-after-body ' +
  'unexpected-token-after-frameset unexpected-token-in-column-group unexpected-token-in-frameset ' +
  'unexpected-token-in-head-noscript unexpected-token-in-table unknown-doctype'
).split(' ');

/** A sink that reports each error to `onError` with its code's name and its line and column. */
export function parseErrorReporter(onError: ParseErrorHandler): ParseErrorSink {
  // Line starts of `input`, recorded once up to `scanned` (as far as errors have needed them); a binary search
  // then places any offset, in or out of order.
  let input = '';
  let starts = [0];
  let scanned = 0;
  return (code, offset, s) => {
    if (s !== input) {
      input = s;
      starts = [0];
      scanned = 0;
    }
    if (offset > scanned) {
      const end = Math.min(offset, s.length);
      for (let i = scanned; i < end; i++) {
        const c = s.charCodeAt(i);
        if (c === 0x0a || (c === 0x0d && s.charCodeAt(i + 1) !== 0x0a)) starts.push(i + 1);
      }
      if (end > scanned) scanned = end;
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const m = (lo + hi + 1) >>> 1;
      if (starts[m]! <= offset) lo = m;
      else hi = m - 1;
    }
    onError({ code: CODE_NAMES[code]!, line: lo + 1, column: offset - starts[lo]! + 1, offset });
  };
}
