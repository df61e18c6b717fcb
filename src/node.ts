/**
 * htmlsift's entry point for Node, Deno and Bun (the package's `node` export condition): the main entry point
 * (`src/index.ts`) with the Encoding Standard's multi-byte decoders installed, since Node's TextDecoder decodes
 * the legacy multi-byte encodings with ICU's tables instead of the standard's (see `src/encoding/legacy-decoders.ts`).
 */
import { installMultiByteDecoders } from './encoding/multi-byte.js';

installMultiByteDecoders();

export * from './index.js';
