/**
 * Quirks-mode determination from the DOCTYPE token (WHATWG HTML, "13.2.6.4.1 The 'initial' insertion
 * mode"). Since 2026 ("handle missing and empty string mostly the same for DOCTYPEs") a missing and an
 * empty public or system identifier are treated alike here, as Chromium and WebKit always did.
 */
import type { DocumentMode } from '../dom.js';

const QUIRKY_PUBLIC_PREFIXES = [
  '+//silmaril//dtd html pro v0r11 19970101//',
  '-//as//dtd html 3.0 aswedit + extensions//',
  '-//advasoft ltd//dtd html 3.0 aswedit + extensions//',
  '-//ietf//dtd html 2.0 level 1//',
  '-//ietf//dtd html 2.0 level 2//',
  '-//ietf//dtd html 2.0 strict level 1//',
  '-//ietf//dtd html 2.0 strict level 2//',
  '-//ietf//dtd html 2.0 strict//',
  '-//ietf//dtd html 2.0//',
  '-//ietf//dtd html 2.1e//',
  '-//ietf//dtd html 3.0//',
  '-//ietf//dtd html 3.2 final//',
  '-//ietf//dtd html 3.2//',
  '-//ietf//dtd html 3//',
  '-//ietf//dtd html level 0//',
  '-//ietf//dtd html level 1//',
  '-//ietf//dtd html level 2//',
  '-//ietf//dtd html level 3//',
  '-//ietf//dtd html strict level 0//',
  '-//ietf//dtd html strict level 1//',
  '-//ietf//dtd html strict level 2//',
  '-//ietf//dtd html strict level 3//',
  '-//ietf//dtd html strict//',
  '-//ietf//dtd html//',
  '-//metrius//dtd metrius presentational//',
  '-//microsoft//dtd internet explorer 2.0 html strict//',
  '-//microsoft//dtd internet explorer 2.0 html//',
  '-//microsoft//dtd internet explorer 2.0 tables//',
  '-//microsoft//dtd internet explorer 3.0 html strict//',
  '-//microsoft//dtd internet explorer 3.0 html//',
  '-//microsoft//dtd internet explorer 3.0 tables//',
  '-//netscape comm. corp.//dtd html//',
  '-//netscape comm. corp.//dtd strict html//',
  "-//o'reilly and associates//dtd html 2.0//",
  "-//o'reilly and associates//dtd html extended 1.0//",
  "-//o'reilly and associates//dtd html extended relaxed 1.0//",
  '-//sq//dtd html 2.0 hotmetal + extensions//',
  '-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//',
  '-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//',
  '-//spyglass//dtd html 2.0 extended//',
  '-//sun microsystems corp.//dtd hotjava html//',
  '-//sun microsystems corp.//dtd hotjava strict html//',
  '-//w3c//dtd html 3 1995-03-24//',
  '-//w3c//dtd html 3.2 draft//',
  '-//w3c//dtd html 3.2 final//',
  '-//w3c//dtd html 3.2//',
  '-//w3c//dtd html 3.2s draft//',
  '-//w3c//dtd html 4.0 frameset//',
  '-//w3c//dtd html 4.0 transitional//',
  '-//w3c//dtd html experimental 19960712//',
  '-//w3c//dtd html experimental 970421//',
  '-//w3c//dtd w3 html//',
  '-//w3o//dtd w3 html 3.0//',
  '-//webtechs//dtd mozilla html 2.0//',
  '-//webtechs//dtd mozilla html//',
];

const HTML401_PREFIXES = ['-//w3c//dtd html 4.01 frameset//', '-//w3c//dtd html 4.01 transitional//'];
const XHTML10_PREFIXES = ['-//w3c//dtd xhtml 1.0 frameset//', '-//w3c//dtd xhtml 1.0 transitional//'];

function startsWithAny(s: string, prefixes: readonly string[]): boolean {
  for (const p of prefixes) if (s.startsWith(p)) return true;
  return false;
}

/** ASCII lower-casing without touching other characters (identifiers compare ASCII case-insensitively). */
function lower(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += c >= 0x41 && c <= 0x5a ? String.fromCharCode(c + 0x20) : s[i];
  }
  return out;
}

/** The document mode a DOCTYPE token selects (outside iframe srcdoc documents). */
export function documentModeFromDoctype(
  name: string | null,
  publicId: string | null,
  systemId: string | null,
  forceQuirks: boolean,
): DocumentMode {
  if (forceQuirks || name !== 'html') return 'quirks';
  const pub = publicId === null ? '' : lower(publicId);
  const sys = systemId === null ? '' : lower(systemId);
  if (pub === '-//w3o//dtd w3 html strict 3.0//en//' || pub === '-/w3c/dtd html 4.0 transitional/en' || pub === 'html') {
    return 'quirks';
  }
  if (sys === 'http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd') return 'quirks';
  if (pub !== '' && startsWithAny(pub, QUIRKY_PUBLIC_PREFIXES)) return 'quirks';
  if (sys === '' && startsWithAny(pub, HTML401_PREFIXES)) return 'quirks';
  if (startsWithAny(pub, XHTML10_PREFIXES)) return 'limited-quirks';
  if (sys !== '' && startsWithAny(pub, HTML401_PREFIXES)) return 'limited-quirks';
  return 'no-quirks';
}
