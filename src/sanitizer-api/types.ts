/**
 * The Sanitizer API's dictionaries: what callers pass (`SanitizerConfig`) and the canonical form the
 * `Sanitizer` keeps and `get()` returns (`CanonicalSanitizerConfig`).
 */
import type { SanitizerName } from './names.js';

/** An element: a name in the HTML namespace, or `{ name, namespace }` (namespace defaults to HTML). */
export type SanitizerElement = string | { name: string; namespace?: string | null };

/** An attribute: a name in no namespace, or `{ name, namespace }` (namespace defaults to null). */
export type SanitizerAttribute = string | { name: string; namespace?: string | null };

/** An element of the `elements` allow-list, optionally with its own attribute allow- or remove-list. */
export type SanitizerElementWithAttributes =
  | string
  | {
      name: string;
      namespace?: string | null;
      attributes?: Iterable<SanitizerAttribute>;
      removeAttributes?: Iterable<SanitizerAttribute>;
    };

/** A processing instruction, by target. */
export type SanitizerProcessingInstruction = string | { target: string };

/** The `SanitizerConfig` dictionary. */
export interface SanitizerConfig {
  elements?: Iterable<SanitizerElementWithAttributes>;
  removeElements?: Iterable<SanitizerElement>;
  replaceWithChildrenElements?: Iterable<SanitizerElement>;
  processingInstructions?: Iterable<SanitizerProcessingInstruction>;
  removeProcessingInstructions?: Iterable<SanitizerProcessingInstruction>;
  attributes?: Iterable<SanitizerAttribute>;
  removeAttributes?: Iterable<SanitizerAttribute>;
  comments?: boolean;
  dataAttributes?: boolean;
}

/** `SanitizerPresets`. */
export type SanitizerPreset = 'default';

/** A canonical `elements` entry. */
export interface CanonicalElement extends SanitizerName {
  attributes?: SanitizerName[];
  removeAttributes?: SanitizerName[];
}

/** A canonical processing instruction entry. */
export interface CanonicalProcessingInstruction {
  target: string;
}

/**
 * A canonical configuration: every entry is in dictionary form; exactly one of each allow/remove pair exists;
 * `comments` always exists, `dataAttributes` exists exactly when `attributes` does.
 */
export interface CanonicalSanitizerConfig {
  elements?: CanonicalElement[];
  removeElements?: SanitizerName[];
  replaceWithChildrenElements?: SanitizerName[];
  processingInstructions?: CanonicalProcessingInstruction[];
  removeProcessingInstructions?: CanonicalProcessingInstruction[];
  attributes?: SanitizerName[];
  removeAttributes?: SanitizerName[];
  comments: boolean;
  dataAttributes?: boolean;
}
