/**
 * CSS parser (CSS Syntax Module Level 3, section 5 "Parsing"), following the editor's draft with nesting:
 * "consume a block's contents" tries a declaration first and falls back to a nested qualified rule.
 *
 * Nothing here recurses on input structure. Tokens are first grouped into component values (simple blocks and
 * functions) with an explicit stack; rules are then parsed one nesting level at a time from a work list.
 *
 * Known simplifications: "valid in the current context" is only the structural check of the draft (a `{}` block
 * must be a non-custom declaration's whole value); no property grammar is consulted. The unicode-range
 * re-tokenization step is not done (the serializer keeps `U+0025-00FF` intact instead).
 */
import { type CssToken, CssTokenizer } from './tokenizer.js';
import { checkList, checkText } from './check.js';

export interface SimpleBlock {
  type: 'block';
  /** The associated token. */
  open: '{' | '[' | '(';
  value: ComponentValue[];
}

export interface FunctionValue {
  type: 'func';
  name: string;
  value: ComponentValue[];
}

export type ComponentValue = CssToken | SimpleBlock | FunctionValue;

export interface Declaration {
  type: 'declaration';
  name: string;
  value: ComponentValue[];
  important: boolean;
}

export interface QualifiedRule {
  type: 'qualified-rule';
  prelude: ComponentValue[];
  /** Contents of the block: declarations and nested rules, in source order. */
  children: BlockItem[];
}

export interface AtRule {
  type: 'at-rule';
  name: string;
  prelude: ComponentValue[];
  /** null for a statement at-rule (ended by `;` or EOF). */
  children: BlockItem[] | null;
  /** The raw `{}` block, for at-rules whose contents are not declarations and rules. */
  block: SimpleBlock | null;
}

export type Rule = QualifiedRule | AtRule;
export type BlockItem = Declaration | Rule;

const CLOSER: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

/** Where grouping reads its tokens from: a tokenizer, or a list of tokens already made. */
interface TokenSource {
  next(): CssToken | null;
}

class TokenList implements TokenSource {
  private i = 0;
  constructor(private readonly tokens: readonly CssToken[]) {}
  next(): CssToken | null {
    return this.i < this.tokens.length ? this.tokens[this.i++]! : null;
  }
}

/**
 * 5.4.7-5.4.9 Consume component values from a token list: simple blocks and functions are built with an explicit
 * stack; unmatched closing tokens stay as tokens; EOF closes everything still open (a parse error).
 */
export function groupComponentValues(tokens: readonly CssToken[]): ComponentValue[] {
  checkList(tokens, 'groupComponentValues', 'the tokens');
  return group(new TokenList(tokens));
}

/** What `group` reads to: the end of the input, the `}` that closes the block it is in, or the end of one value. */
const TO_END = 0;
const TO_CLOSING_BRACE = 1;
const ONE_VALUE = 2;

function group(source: TokenSource, until = TO_END, first: CssToken | null = null): ComponentValue[] {
  const root: ComponentValue[] = [];
  // Each open container and the token type that ends it.
  const stack: { list: ComponentValue[]; end: string; container: SimpleBlock | FunctionValue }[] = [];
  let list = root;
  for (let t = first ?? source.next(); t !== null; t = source.next()) {
    const type = t.type;
    if (type === '{' || type === '[' || type === '(') {
      // consume a simple block
      const block: SimpleBlock = { type: 'block', open: type, value: [] };
      list.push(block);
      stack.push({ list, end: CLOSER[type]!, container: block });
      list = block.value;
      continue;
    }
    if (type === 'function') {
      // consume a function
      const fn: FunctionValue = { type: 'func', name: t.value, value: [] };
      list.push(fn);
      stack.push({ list, end: ')', container: fn });
      list = fn.value;
      continue;
    }
    if (stack.length > 0 && type === stack[stack.length - 1]!.end) {
      // The ending token closes the innermost container.
      const open = stack.pop()!;
      // A list grown by push from empty has room for 17 values; most blocks hold a few, and a big sheet keeps
      // them all until it is written: each keeps an exact copy.
      if (list.length < 12) open.container.value = list.slice();
      list = open.list;
      if (until === ONE_VALUE && stack.length === 0) return root;
      continue;
    }
    if (until === TO_CLOSING_BRACE && type === '}' && stack.length === 0) return root;
    list.push(t);
  }
  return root;
}

/**
 * A `{}` block a Cursor reading the token stream has not read yet. Its values are grouped from the token stream when first asked for,
 * unless `Cursor.enter` reads them as a stream instead.
 */
class LazyBlock implements SimpleBlock {
  readonly type = 'block';
  readonly open = '{';
  /** Whether its tokens have been taken from the stream (grouped, or by a cursor of its own). */
  read = false;
  private values: ComponentValue[] = [];
  constructor(private readonly source: TokenSource) {}
  get value(): ComponentValue[] {
    if (!this.read) {
      this.read = true;
      this.values = group(this.source, TO_CLOSING_BRACE);
    }
    return this.values;
  }
  set value(values: ComponentValue[]) {
    this.read = true;
    this.values = values;
  }
}

/**
 * A cursor over one level of component values; `undefined` plays the EOF token. Either over a list, or over values
 * read from the tokenizer as they are needed: the sheet's top level, or a block's contents up to its closing `}`.
 * Read so, blocks, `[]`, `()` and functions are grouped whole, except the `{}` blocks of this level, which stay unread
 * (LazyBlock) until something reads them or past them: a rule's block can then be read by a cursor of its own
 * (`enter`). Values before the current one are let go at `commit` (the parser goes back only within the item it is
 * reading), so a sheet is never held whole. (One class for both: the parser's calls on it stay monomorphic.)
 */
export class Cursor {
  i = 0;
  private buffer: ComponentValue[];
  /** The index of buffer[0] among this level's values. */
  private base = 0;
  private done: boolean;
  /** The last `{}` block read at this level, which must be read before anything after it. */
  private lazy: LazyBlock | null = null;

  constructor(
    list: readonly ComponentValue[] | null,
    private readonly source: TokenSource | null = null,
    private readonly inBlock = false,
  ) {
    this.buffer = list === null ? [] : (list as ComponentValue[]);
    this.done = list !== null;
  }

  peek(): ComponentValue | undefined {
    const k = this.i - this.base;
    while (this.buffer.length <= k && !this.done) this.pull();
    return this.buffer[k];
  }

  skipWhitespace(): void {
    while (this.peek()?.type === 'whitespace') this.i++;
  }

  /** Lets go of the values before the current one (a cursor over a list keeps it). */
  commit(): void {
    const k = this.i - this.base;
    if (this.source !== null && k > 0) {
      this.buffer = k >= this.buffer.length ? [] : this.buffer.slice(k);
      this.base = this.i;
    }
  }

  /** A cursor over the contents of `block`, the `{}` block this cursor read last, read from the stream; else null. */
  enter(block: SimpleBlock): Cursor | null {
    if (this.source === null || block !== this.lazy || this.lazy.read) return null;
    this.lazy.read = true;
    return new Cursor(null, this.source, true);
  }

  private pull(): void {
    if (this.lazy !== null && !this.lazy.read) void this.lazy.value;
    const t = this.source!.next();
    if (t === null || (this.inBlock && t.type === '}')) {
      this.done = true;
      return;
    }
    const type = t.type;
    if (type === '{') this.buffer.push((this.lazy = new LazyBlock(this.source!)));
    else if (type === '[' || type === '(' || type === 'function') this.buffer.push(group(this.source!, ONE_VALUE, t)[0]!);
    else this.buffer.push(t);
  }
}

/** A cursor over the values of a stylesheet, read as they are needed (see Cursor). */
export function streamStylesheet(text: string): Cursor {
  return new Cursor(null, new CssTokenizer(text));
}

/** Parse text into a list of component values ("parse a list of component values"), grouped as tokenized. */
export function parseComponentValues(text: string): ComponentValue[] {
  checkText(text, 'parseComponentValues');
  return group(new CssTokenizer(text));
}

/** "Parse a comma-separated list of component values". */
export function parseCommaSeparatedList(text: string): ComponentValue[][] {
  checkText(text, 'parseCommaSeparatedList');
  return splitOnCommas(group(new CssTokenizer(text)));
}

/** Split a component value list on its top-level comma tokens. */
export function splitOnCommas(values: readonly ComponentValue[]): ComponentValue[][] {
  checkList(values, 'splitOnCommas', 'the component values');
  const out: ComponentValue[][] = [[]];
  for (const v of values) {
    if (v.type === 'comma') out.push([]);
    else out[out.length - 1]!.push(v);
  }
  return out;
}

function isOpenCurly(v: ComponentValue | undefined): v is SimpleBlock {
  return v !== undefined && v.type === 'block' && v.open === '{';
}

/** A rule whose block is not parsed yet, and the block. */
export interface Pending {
  target: QualifiedRule | AtRule;
  block: SimpleBlock;
}

/** "Consume an at-rule" (the at-keyword is the current value). */
function consumeAtRule(cur: Cursor, nested: boolean, pending: Pending[]): AtRule {
  const kw = cur.peek() as { type: 'at-keyword'; value: string };
  cur.i++;
  const rule: AtRule = { type: 'at-rule', name: kw.value, prelude: [], children: null, block: null };
  for (;;) {
    const v = cur.peek();
    if (v === undefined) return rule; // EOF: parse error
    if (v.type === 'semicolon') {
      cur.i++;
      return rule;
    }
    if (v.type === '}') {
      if (nested) return rule;
      rule.prelude.push(v); // parse error
      cur.i++;
      continue;
    }
    if (isOpenCurly(v)) {
      cur.i++;
      rule.block = v;
      rule.children = [];
      pending.push({ target: rule, block: v });
      return rule;
    }
    rule.prelude.push(v);
    cur.i++;
  }
}

/** "Consume a qualified rule", with an optional `;` stop token. */
function consumeQualifiedRule(
  cur: Cursor,
  stopAtSemicolon: boolean,
  nested: boolean,
  pending: Pending[],
): QualifiedRule | null {
  const prelude: ComponentValue[] = [];
  for (;;) {
    const v = cur.peek();
    if (v === undefined) return null; // EOF: parse error
    if (stopAtSemicolon && v.type === 'semicolon') return null; // parse error, not consumed
    if (v.type === '}') {
      if (nested) return null;
      prelude.push(v); // parse error
      cur.i++;
      continue;
    }
    if (isOpenCurly(v)) {
      // A prelude that looks like a custom property declaration ("--x:") makes the rule invalid.
      let k = 0;
      while (k < prelude.length && prelude[k]!.type === 'whitespace') k++;
      const first = prelude[k];
      let j = k + 1;
      while (j < prelude.length && prelude[j]!.type === 'whitespace') j++;
      if (first?.type === 'ident' && first.value.startsWith('--') && prelude[j]?.type === 'colon') {
        cur.i++;
        if (nested) consumeBadDeclarationRemnants(cur);
        return null;
      }
      cur.i++;
      const rule: QualifiedRule = { type: 'qualified-rule', prelude, children: [] };
      pending.push({ target: rule, block: v });
      return rule;
    }
    prelude.push(v);
    cur.i++;
  }
}

/** "Consume the remnants of a bad declaration", in a nested block (the only place it is needed). */
function consumeBadDeclarationRemnants(cur: Cursor): void {
  for (;;) {
    const v = cur.peek();
    if (v === undefined) return;
    if (v.type === 'semicolon') {
      cur.i++;
      return;
    }
    if (v.type === '}') return;
    cur.i++;
  }
}

/**
 * "Consume a declaration". Returns null ("nothing") when it is not one. Its callers restore the position they
 * marked when it returns nothing (or give up), so it does not consume the remnants of the bad declaration, as the
 * standard's steps do: that scan reached the end of the block for every nested rule (`& .b {}` and `div {}`
 * start no declaration and hold no `;`), which made a block of nested rules quadratic.
 */
function consumeDeclaration(cur: Cursor, nested: boolean): Declaration | null {
  const first = cur.peek();
  if (first === undefined || first.type !== 'ident') return null;
  cur.i++;
  const name = first.value;
  cur.skipWhitespace();
  if (cur.peek()?.type !== 'colon') return null;
  cur.i++;
  cur.skipWhitespace();
  const custom = name.startsWith('--');
  // "Consume a list of component values" with `;` as stop token. For non-custom properties a top-level {} block
  // together with any other non-whitespace value makes the declaration invalid; stop scanning as soon as that is
  // known so that `a:b{} a:b{} ...` stays linear.
  const value: ComponentValue[] = [];
  let sawCurly = false;
  let sawOther = false;
  for (;;) {
    const v = cur.peek();
    if (v === undefined || v.type === 'semicolon') break;
    if (v.type === '}') {
      if (nested) break;
      // parse error: the token becomes part of the value
    }
    if (!custom) {
      if (isOpenCurly(v)) sawCurly = true;
      else if (v.type !== 'whitespace') sawOther = true;
      if (sawCurly && sawOther) return null;
    }
    value.push(v);
    cur.i++;
  }
  // !important: the last two non-whitespace values are "!" and an ident "important".
  let important = false;
  let j = value.length - 1;
  while (j >= 0 && value[j]!.type === 'whitespace') j--;
  const last = value[j];
  if (last?.type === 'ident' && last.value.toLowerCase() === 'important') {
    let k = j - 1;
    while (k >= 0 && value[k]!.type === 'whitespace') k--;
    const bang = value[k];
    if (bang?.type === 'delim' && bang.value === '!') {
      important = true;
      value.length = k;
    }
  }
  // Remove trailing whitespace.
  while (value.length > 0 && value[value.length - 1]!.type === 'whitespace') value.length--;
  return { type: 'declaration', name, value, important };
}

/**
 * One step of "consume a block's contents": the next declaration or rule, null at the end of the block. The blocks
 * of the rules it returns go to `pending`, unparsed.
 */
export function nextBlockItem(cur: Cursor, pending: Pending[]): BlockItem | null {
  for (;;) {
    const v = cur.peek();
    if (v === undefined || v.type === '}') return null;
    if (v.type === 'whitespace' || v.type === 'semicolon') {
      cur.i++;
      continue;
    }
    if (v.type === 'at-keyword') return consumeAtRule(cur, true, pending);
    const mark = cur.i;
    const decl = consumeDeclaration(cur, true);
    if (decl !== null) return decl;
    cur.i = mark;
    const rule = consumeQualifiedRule(cur, true, true, pending);
    if (rule !== null) return rule;
  }
}

/** "Consume a block's contents": declarations and rules in source order. */
function consumeBlockContents(cur: Cursor, pending: Pending[]): BlockItem[] {
  const items: BlockItem[] = [];
  for (let item = nextBlockItem(cur, pending); item !== null; item = nextBlockItem(cur, pending)) items.push(item);
  return items;
}

/** Parse the pending blocks (breadth-first, no recursion). */
function drain(pending: Pending[]): void {
  while (pending.length > 0) {
    const { target, block } = pending.pop()!;
    target.children = consumeBlockContents(new Cursor(block.value), pending);
  }
}

/**
 * One step of "consume a stylesheet's contents": the next top-level rule, null at the end. The blocks of the rules
 * it returns go to `pending`, unparsed.
 */
export function nextTopLevelRule(cur: Cursor, pending: Pending[]): Rule | null {
  for (;;) {
    const v = cur.peek();
    if (v === undefined) return null;
    if (v.type === 'whitespace' || v.type === 'CDO' || v.type === 'CDC') {
      cur.i++;
      continue;
    }
    if (v.type === 'at-keyword') return consumeAtRule(cur, false, pending);
    const rule = consumeQualifiedRule(cur, false, false, pending);
    if (rule !== null) return rule;
  }
}

/** "Parse a stylesheet" ("consume a stylesheet's contents"). */
export function parseStylesheet(text: string): Rule[] {
  checkText(text, 'parseStylesheet');
  const cur = new Cursor(group(new CssTokenizer(text)));
  const pending: Pending[] = [];
  const rules: Rule[] = [];
  for (let rule = nextTopLevelRule(cur, pending); rule !== null; rule = nextTopLevelRule(cur, pending)) rules.push(rule);
  drain(pending);
  return rules;
}

/** "Parse a block's contents" (e.g. a `style` attribute): declarations and rules, nested ones parsed too. */
export function parseBlockContents(text: string): BlockItem[] {
  checkText(text, 'parseBlockContents');
  const pending: Pending[] = [];
  const items = consumeBlockContents(new Cursor(group(new CssTokenizer(text))), pending);
  drain(pending);
  return items;
}

/** "Parse a list of declarations": the declarations of a block's contents (rules are dropped). */
export function parseDeclarationList(text: string): Declaration[] {
  checkText(text, 'parseDeclarationList');
  return declarationsOf(group(new CssTokenizer(text)));
}

/** The declarations of a block's contents, given as component values (its rules are dropped, unparsed). */
export function declarationsOf(values: readonly ComponentValue[]): Declaration[] {
  const pending: Pending[] = [];
  const items = consumeBlockContents(new Cursor(values), pending);
  return items.filter((x): x is Declaration => x.type === 'declaration');
}

/** "Parse a declaration" from text. */
export function parseDeclaration(text: string): Declaration | null {
  checkText(text, 'parseDeclaration');
  const cur = new Cursor(group(new CssTokenizer(text)));
  cur.skipWhitespace();
  if (cur.peek()?.type !== 'ident') return null;
  const d = consumeDeclaration(cur, false);
  return d !== null && cur.peek() === undefined ? d : null;
}

