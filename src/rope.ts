/**
 * Strings built with `+=`: engines make them ropes, one heap object per piece, all alive until the string is
 * first read. A big output's rope outlives young-generation collections and is copied and promoted piece by
 * piece, so its builders (the CSS serializer, the HTML serializer's escaping) flatten it in chunks as they go.
 */

let flattenSink = 0;

/**
 * Returns `s`, flattened: V8 flattens a rope in place the first time a character of it is read (the rope
 * then points to one flat copy and its pieces become garbage). The read's result goes to a module variable
 * so that the compiler cannot drop it. Only a performance hint: any engine gives the same string.
 */
export function flattenRope(s: string): string {
  flattenSink ^= s.charCodeAt(0);
  return s;
}
