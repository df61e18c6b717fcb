/**
 * The HTML tokenizer (WHATWG HTML, "13.2.5 Tokenization").
 * (API stub: states are being filled in.)
 */
import type { TokenSink } from './token-sink.js';
import type { ParseErrorHandler } from '../errors.js';

export const DATA_STATE = 0;
export const RCDATA_STATE = 1;
export const RAWTEXT_STATE = 2;
export const SCRIPT_DATA_STATE = 3;
export const PLAINTEXT_STATE = 4;

export class Tokenizer {
  state = DATA_STATE;
  lastStartTagName = '';
  tokenStart = 0;
  private readonly sink: TokenSink;
  private readonly onError: ParseErrorHandler | null;

  constructor(sink: TokenSink, onError: ParseErrorHandler | null = null) {
    this.sink = sink;
    this.onError = onError;
  }

  error(code: string, offset: number): void {
    if (this.onError !== null) this.onError({ code, line: 1, column: offset + 1, offset });
  }

  run(input: string): void {
    if (input.length > 0) this.sink.characters(input);
    this.sink.endOfFile();
  }
}
