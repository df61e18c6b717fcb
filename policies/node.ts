/**
 * `htmlsift/policies` for Node, Deno and Bun (the `node` export condition): the policies, with the Encoding
 * Standard's multi-byte decoders installed (byte input to `sanitizeEmail`), as the main Node entry point does.
 */
import { installMultiByteDecoders } from '../src/encoding/multi-byte.js';

installMultiByteDecoders();

export * from './index.js';
