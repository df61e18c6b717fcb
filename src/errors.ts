/**
 * Parse errors, as the HTML standard names them ("parse errors" section of the parsing chapter).
 *
 * Parse errors never stop parsing: the standard defines the recovery for each. They are reported
 * to the caller's `onError` callback, if any, and cost nothing when no callback is given.
 */
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
