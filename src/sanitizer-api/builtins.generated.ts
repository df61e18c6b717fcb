/**
 * GENERATED FILE, do not edit. Regenerate with `npx tsx scripts/generate-sanitizer-builtins.ts`.
 *
 * Source: the Sanitizer API's built-ins (WICG sanitizer-api `builtins/`, 2026-04), read from the project's shared
 * material `sanitizer-api/`:
 *   safe-default-configuration.json, safe-baseline-configuration.json, event-handler-content-attributes.txt.
 * Those files are under the W3C Software and Document License (see LICENSE.md beside them).
 *
 * Encoding: names are grouped by namespace into space-separated strings; in the element allow-list an entry
 * `element=attr,attr` carries that element's own allow-list of no-namespace attributes, and a bare `element`
 * an empty one. `src/sanitizer-api/builtins.ts` expands these into canonical configurations.
 */

import { HTML_NS, MATHML_NS, SVG_NS } from '../dom.js';

/** Built-in safe default configuration, "elements": [namespace, entries]. */
export const DEFAULT_ELEMENTS: ReadonlyArray<readonly [string, string]> = [
  [
    MATHML_NS,
    "math merror mfrac mi mmultiscripts mn " +
      "mo=fence,form,largeop,lspace,maxsize,minsize,movablelimits,rspace,separator,stretchy,symmetric " +
      "mover=accent mpadded=depth,height,lspace,voffset,width mphantom mprescripts mroot mrow ms " +
      "mspace=depth,height,width msqrt mstyle msub msubsup msup mtable mtd=columnspan,rowspan mtext mtr " +
      "munder=accentunder munderover=accent,accentunder semantics",
  ],
  [
    HTML_NS,
    "a=href,hreflang,type abbr address article aside b bdi bdo blockquote=cite body br caption cite code " +
      "col=span colgroup=span data=value dd del=cite,datetime dfn div dl dt em figcaption figure footer h1 " +
      "h2 h3 h4 h5 h6 head header hgroup hr html i ins=cite,datetime kbd li=value main mark menu nav " +
      "ol=reversed,start,type p pre q rp rt ruby s samp search section small span strong sub sup table " +
      "tbody td=colspan,headers,rowspan tfoot th=abbr,colspan,headers,rowspan,scope thead time=datetime " +
      "title tr u ul var wbr",
  ],
  [
    SVG_NS,
    "a=href,hreflang,type circle=cx,cy,pathLength,r defs desc ellipse=cx,cy,pathLength,rx,ry " +
      "foreignObject=height,width,x,y g line=pathLength,x1,x2,y1,y2 " +
      "marker=markerHeight,markerUnits,markerWidth,orient,preserveAspectRatio,refX,refY,viewBox metadata " +
      "path=d,pathLength polygon=pathLength,points polyline=pathLength,points " +
      "rect=height,pathLength,rx,ry,width,x,y svg=height,preserveAspectRatio,viewBox,width,x,y " +
      "text=dx,dy,lengthAdjust,rotate,textLength,x,y " +
      "textPath=lengthAdjust,method,path,side,spacing,startOffset,textLength title " +
      "tspan=dx,dy,lengthAdjust,rotate,textLength,x,y",
  ],
];

/** Built-in safe default configuration, "attributes": [namespace, names]. */
export const DEFAULT_ATTRIBUTES: ReadonlyArray<readonly [string | null, string]> = [
  [
    null,
    "alignment-baseline baseline-shift clip-path clip-rule color color-interpolation cursor dir direction " +
      "display displaystyle dominant-baseline fill fill-opacity fill-rule font-family font-size " +
      "font-size-adjust font-stretch font-style font-variant font-weight lang letter-spacing marker-end " +
      "marker-mid marker-start mathbackground mathcolor mathsize opacity paint-order pointer-events " +
      "scriptlevel shape-rendering stop-color stop-opacity stroke stroke-dasharray stroke-dashoffset " +
      "stroke-linecap stroke-linejoin stroke-miterlimit stroke-opacity stroke-width text-anchor " +
      "text-decoration text-overflow text-rendering title transform transform-origin unicode-bidi " +
      "vector-effect visibility white-space word-spacing writing-mode",
  ],
];

/** Built-in safe default configuration, "processingInstructions" (targets). */
export const DEFAULT_PROCESSING_INSTRUCTIONS = "";

/** Built-in safe default configuration, "comments". */
export const DEFAULT_COMMENTS = false;

/** Built-in safe default configuration, "dataAttributes". */
export const DEFAULT_DATA_ATTRIBUTES = false;

/** Built-in safe baseline configuration, "removeElements": [namespace, names]. */
export const BASELINE_REMOVE_ELEMENTS: ReadonlyArray<readonly [string, string]> = [
  [
    HTML_NS,
    "embed frame iframe object script",
  ],
  [
    SVG_NS,
    "script use",
  ],
];

/** Built-in safe baseline configuration, "removeAttributes": [namespace, names]. */
export const BASELINE_REMOVE_ATTRIBUTES: ReadonlyArray<readonly [string | null, string]> = [];

/** HTML's event handler content attributes (no namespace), in the source's order. */
export const EVENT_HANDLER_CONTENT_ATTRIBUTES =
  "onafterprint onauxclick onbeforeinput onbeforematch onbeforeprint onbeforeunload onbeforetoggle " +
  "onblur oncancel oncanplay oncanplaythrough onchange onclick onclose oncontextlost oncontextmenu " +
  "oncontextrestored oncopy oncuechange oncut ondblclick ondrag ondragend ondragenter ondragleave " +
  "ondragover ondragstart ondrop ondurationchange onemptied onended onerror onfocus onformdata " +
  "onhashchange oninput oninvalid onkeydown onkeypress onkeyup onlanguagechange onload onloadeddata " +
  "onloadedmetadata onloadstart onmessage onmessageerror onmousedown onmouseenter onmouseleave " +
  "onmousemove onmouseout onmouseover onmouseup onoffline ononline onpagehide onpagereveal onpageshow " +
  "onpageswap onpaste onpause onplay onplaying onpopstate onprogress onratechange onreset onresize " +
  "onrejectionhandled onscroll onscrollend onsecuritypolicyviolation onseeked onseeking onselect " +
  "onslotchange onstalled onstorage onsubmit onsuspend ontimeupdate ontoggle onunhandledrejection " +
  "onunload onvolumechange onwaiting onwheel";
