import type { Attr } from '../dom.js';

/**
 * What the tokenizer emits, as calls on a sink (no token objects are allocated).
 *
 * The tree builder is the sink in the parser; tests use a collecting sink. Calls are synchronous:
 * a sink may change the tokenizer's state (e.g. to RCDATA after a `textarea` start tag) before
 * returning, and the tokenizer continues in that state.
 */
export interface TokenSink {
  /**
   * A start tag. `name` is lower-cased. `attributes` is a fresh array of fresh `Attr`s (no-namespace,
   * names lower-cased, duplicates already dropped with a `duplicate-attribute` error) whose ownership
   * passes to the sink: the tree builder uses it as the element's attribute list. `tagId` is the name's HTML tag
   * id (tree-builder/html-elements.ts; UNKNOWN for a name that is not an HTML tag name) when the tokenizer's name
   * cache knows it, else -1.
   */
  startTag(name: string, attributes: Attr[], selfClosing: boolean, tagId: number): void;
  /**
   * An end tag (its attributes and self-closing flag are dropped by the tokenizer, with the standard's errors);
   * `tagId` as for a start tag.
   */
  endTag(name: string, tagId: number): void;
  /**
   * A run of character tokens, as long as the tokenizer could make it. Never empty. In the data state and
   * in CDATA sections a U+0000 is not part of a run: it arrives through `nullCharacter()`. Elsewhere
   * (RCDATA, RAWTEXT, script data, PLAINTEXT) the tokenizer has already replaced U+0000 with U+FFFD.
   */
  characters(data: string): void;
  /** A U+0000 character token from the data state or a CDATA section. */
  nullCharacter(): void;
  comment(data: string): void;
  /** `<?target data>` (2026): target is case-preserved; data has no `>` and no trailing `?`. */
  processingInstruction(target: string, data: string): void;
  /** A DOCTYPE token; a missing name or identifier is `null`. */
  doctype(name: string | null, publicId: string | null, systemId: string | null, forceQuirks: boolean): void;
  endOfFile(): void;
  /**
   * Asked when the tokenizer meets `<![CDATA[` in the markup declaration open state: true when there is an
   * adjusted current node and it is not an element in the HTML namespace.
   */
  cdataAllowed(): boolean;
}
