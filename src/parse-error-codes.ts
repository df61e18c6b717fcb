/**
 * The parse errors' codes (the "parse errors" section of the parsing chapter), as the tokenizer and the tree builder
 * report them (imported as a namespace, `E.EofInTag`; `errors.ts` exports it as `ParseErrorCode` and gives each code
 * its name: `EofInTag` is `eof-in-tag`, `AdoptionAgency1_2` is `adoption-agency-1.2`). Numbered 0 to n - 1.
 *
 * A module of constants only (no imports), so that a minifying bundler writes each as its number, from the sources
 * as from the published build; an enum's members stay property reads of an object carrying every member's name
 * when a bundler gets them from a JavaScript module.
 */

// Tokenizer errors: the standard's codes (13.2.2 "Parse errors").
export const AbruptClosingOfEmptyComment = 0;
export const AbruptDoctypePublicIdentifier = 1;
export const AbruptDoctypeSystemIdentifier = 2;
export const AbsenceOfDigitsInNumericCharacterReference = 3;
export const CdataInHtmlContent = 4;
export const CharacterReferenceOutsideUnicodeRange = 5;
export const ControlCharacterInInputStream = 6;
export const ControlCharacterReference = 7;
export const DisallowedProcessingInstructionTarget = 8;
export const DuplicateAttribute = 9;
export const EndTagWithAttributes = 10;
export const EndTagWithTrailingSolidus = 11;
export const EofBeforeTagName = 12;
export const EofInCdata = 13;
export const EofInComment = 14;
export const EofInDoctype = 15;
export const EofInProcessingInstruction = 16;
export const EofInScriptHtmlCommentLikeText = 17;
export const EofInTag = 18;
export const IncorrectlyClosedComment = 19;
export const IncorrectlyOpenedComment = 20;
export const InvalidCharacterSequenceAfterDoctypeName = 21;
export const InvalidFirstCharacterOfProcessingInstructionTarget = 22;
export const InvalidFirstCharacterOfTagName = 23;
export const InvalidProcessingInstructionTarget = 24;
export const MissingAttributeValue = 25;
export const MissingDoctypeName = 26;
export const MissingDoctypePublicIdentifier = 27;
export const MissingDoctypeSystemIdentifier = 28;
export const MissingEndTagName = 29;
export const MissingQuoteBeforeDoctypePublicIdentifier = 30;
export const MissingQuoteBeforeDoctypeSystemIdentifier = 31;
export const MissingSemicolonAfterCharacterReference = 32;
export const MissingWhitespaceAfterDoctypePublicKeyword = 33;
export const MissingWhitespaceAfterDoctypeSystemKeyword = 34;
export const MissingWhitespaceBeforeDoctypeName = 35;
export const MissingWhitespaceBetweenAttributes = 36;
export const MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers = 37;
export const NestedComment = 38;
export const NoncharacterCharacterReference = 39;
export const NoncharacterInInputStream = 40;
export const NullCharacterReference = 41;
export const SurrogateCharacterReference = 42;
export const SurrogateInInputStream = 43;
export const UnexpectedCharacterAfterDoctypeSystemIdentifier = 44;
export const UnexpectedCharacterInAttributeName = 45;
export const UnexpectedCharacterInUnquotedAttributeValue = 46;
export const UnexpectedEqualsSignBeforeAttributeName = 47;
export const UnexpectedNullCharacter = 48;
export const UnexpectedSolidusInTag = 49;
export const UnknownNamedCharacterReference = 50;
// Tree-construction errors (no codes in the standard; html5lib's style).
export const AdoptionAgency1_2 = 51;
export const AdoptionAgency1_3 = 52;
export const AdoptionAgency4_4 = 53;
export const EndTagTooEarly = 54;
export const EofInTemplate = 55;
export const EofInText = 56;
export const ExpectedDoctypeButGotChars = 57;
export const ExpectedDoctypeButGotEndTag = 58;
export const ExpectedDoctypeButGotEof = 59;
export const ExpectedDoctypeButGotStartTag = 60;
export const NonVoidHtmlElementStartTagWithTrailingSolidus = 61;
export const UnexpectedCellInTableBody = 62;
export const UnexpectedCharAfterAfterFrameset = 63;
export const UnexpectedCharAfterFrameset = 64;
export const UnexpectedCharInFrameset = 65;
export const UnexpectedCharacterInTable = 66;
export const UnexpectedDoctype = 67;
export const UnexpectedEndTag = 68;
export const UnexpectedEndTagBeforeHtml = 69;
export const UnexpectedEndTagP = 70;
export const UnexpectedEndTagTreatedAs = 71;
export const UnexpectedFormInTable = 72;
export const UnexpectedHiddenInputInTable = 73;
export const UnexpectedHtmlElementInForeignContent = 74;
export const UnexpectedInputInSelect = 75;
export const UnexpectedSelectInSelect = 76;
export const UnexpectedStartTag = 77;
export const UnexpectedStartTagIgnored = 78;
export const UnexpectedStartTagImpliesEndTag = 79;
export const UnexpectedStartTagOutOfMyHead = 80;
export const UnexpectedStartTagTreatedAs = 81;
export const UnexpectedToken = 82;
export const UnexpectedTokenAfterAfterBody = 83;
export const UnexpectedTokenAfterAfterFrameset = 84;
export const UnexpectedTokenAfterBody = 85;
export const UnexpectedTokenAfterFrameset = 86;
export const UnexpectedTokenInColumnGroup = 87;
export const UnexpectedTokenInFrameset = 88;
export const UnexpectedTokenInHeadNoscript = 89;
export const UnexpectedTokenInTable = 90;
export const UnknownDoctype = 91;
