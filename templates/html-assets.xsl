<?xml version="1.0" encoding="UTF-8"?>
<!-- The page's stylesheet and script, inlined so jvmti.html is one
     self-contained file. Light and dark themes follow the system; a print
     stylesheet drops the navigation. The script only adds the search box:
     everything else works with JavaScript off. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:template name="css"><![CDATA[
:root {
  --bg: #ffffff; --fg: #1d2330; --muted: #5b6475; --line: #d9dee7; --panel: #f5f7fa;
  --link: #0b57d0; --code-bg: #eef1f6; --accent: #7a3cc9; --badge-bg: #e8defa;
  --target: #fff4c2; --head: #0f1729;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #14171d; --fg: #dde3ec; --muted: #98a2b3; --line: #2d3441; --panel: #1b2029;
    --link: #8ab4f8; --code-bg: #232a35; --accent: #c6a4ff; --badge-bg: #35294d;
    --target: #3d3517; --head: #f3f6fb;
  }
}
* { box-sizing: border-box; }
html { scroll-padding-top: 4.5rem; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.92em; }
code { background: var(--code-bg); border-radius: 3px; padding: 0 0.2em; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.7em 1em; overflow-x: auto; }
pre code { background: none; padding: 0; }
h1, h2, h3, h4 { color: var(--head); line-height: 1.25; }
h1 { font-size: 2rem; margin: 0.5rem 0 0; }
h2 { font-size: 1.6rem; border-bottom: 2px solid var(--line); padding-bottom: 0.2em; margin-top: 2.5rem; }
h3 { font-size: 1.25rem; margin-top: 2rem; }
h4 { font-size: 1rem; margin: 1.2rem 0 0.4rem; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; z-index: 10; background: var(--bg); padding: 0.3rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.top { position: sticky; top: 0; z-index: 5; display: flex; gap: 1rem; align-items: center;
  padding: 0.5rem 1rem; background: var(--panel); border-bottom: 1px solid var(--line); }
.top .title { margin: 0; font-weight: 600; white-space: nowrap; }
.top .version { color: var(--muted); font-weight: 400; margin-left: 0.5em; }
.search { position: relative; flex: 1; max-width: 36rem; }
.search input { width: 100%; font: inherit; padding: 0.35rem 0.6rem; border-radius: 6px;
  border: 1px solid var(--line); background: var(--bg); color: var(--fg); }
.search-results { position: absolute; left: 0; right: 0; top: 2.4rem; max-height: 70vh; overflow-y: auto;
  margin: 0; padding: 0.3rem 0; list-style: none; background: var(--bg); border: 1px solid var(--line);
  border-radius: 6px; box-shadow: 0 6px 24px rgba(0,0,0,0.18); contain: content; will-change: transform; }
.search-results li a { display: block; padding: 0.2rem 0.8rem; color: var(--fg); }
.search-results li a:hover, .search-results li.active a { background: var(--code-bg); text-decoration: none; }
.search-results .kind { color: var(--muted); font-size: 0.8em; margin: 0 0.4em; }
.search-results .sum { display: block; color: var(--muted); font-size: 0.82em; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; }
.search-results .since { margin-left: 0.3em; }
.search-results .empty { padding: 0.2rem 0.8rem; color: var(--muted); }
.layout { display: grid; grid-template-columns: 18rem minmax(0, 1fr); }
.toc { position: sticky; top: 3.2rem; height: calc(100vh - 3.2rem); overflow-y: auto;
  padding: 1rem 0.8rem; border-right: 1px solid var(--line); font-size: 0.9rem; }
.toc ul { list-style: none; margin: 0; padding-left: 0.9rem; }
.toc > ul { padding-left: 0; }
.toc li { margin: 0.15rem 0; }
.toc summary { cursor: pointer; }
.toc a { display: inline-block; padding: 0 0.25rem; border-radius: 3px; overflow-wrap: break-word; }
.toc a[aria-current] { background: var(--badge-bg); color: var(--head); font-weight: 600; }
.toc a:focus-visible, .toc summary:focus-visible { outline: 2px solid var(--link); outline-offset: 1px; }
main { padding: 0 2.5rem 4rem; max-width: 72rem; min-width: 0; overflow-wrap: break-word; }
.toc-box > summary { display: none; }
.proto-facts { color: var(--muted); font-size: 0.9em; margin: -0.4rem 0 0.6rem; }
.subtitle { color: var(--muted); margin-top: 0.2rem; }
.para { display: block; height: 0.6em; }
.prose { margin: 0.4rem 0; }
.item { border-top: 1px solid var(--line); margin-top: 2rem; }
.item h3 { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.5rem; }
.item h3 .ident { font-size: 0.85em; }
/* A heading's permalink: faint until the heading is hovered or the link
   has the focus (it is in the tab order), always shown where nothing
   hovers (a touch screen), and big enough to tap. */
.self { color: var(--muted); opacity: 0.35; display: inline-block; min-width: 1.6rem; min-height: 1.6rem;
  line-height: 1.6rem; text-align: center; font-weight: 400; border-radius: 4px; }
.self:hover, .self:focus, h2:hover > .self, h3:hover > .self, dt:hover > .self, caption:hover > .self { opacity: 1; }
.self:focus-visible { outline: 2px solid var(--link); outline-offset: 1px; }
@media (hover: none) { .self { opacity: 1; } }
.category-title { margin-top: 3.5rem; }
.category-list { columns: 3 14rem; padding-left: 1.2rem; }
.since { display: inline-block; font-size: 0.72rem; font-weight: 600; color: var(--accent);
  background: var(--badge-bg); border-radius: 999px; padding: 0 0.55em; vertical-align: middle; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.6rem 0; }
table.wide, table.facts { width: 100%; }
th, td { border: 1px solid var(--line); padding: 0.35rem 0.6rem; text-align: left; vertical-align: top; }
tr:first-child th { background: var(--panel); }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
.type-note { color: var(--muted); font-size: 0.93em; margin: 0.4rem 0 0; }
.xref { font-size: 0.93em; }
.xref-label { color: var(--muted); font-size: 0.85em; text-transform: uppercase; letter-spacing: 0.04em; }
.rationale { display: block; border-left: 3px solid var(--accent); padding-left: 0.7rem; margin: 0.5rem 0; }
.index-columns { columns: 3 16rem; list-style: none; padding-left: 0; }
.index-group { break-inside: avoid; }
.index-group ul { list-style: none; padding-left: 0.6rem; margin: 0; }
dl.errors dt { font-weight: 600; margin-top: 1rem; }
dl.errors dd { margin-left: 1.2rem; }
.num { color: var(--muted); font-weight: 400; }
:target { background: var(--target); transition: background 1s; }
.colophon { margin-top: 4rem; color: var(--muted); font-size: 0.85rem; }
ul.circle { list-style-type: circle; }
ul.square { list-style-type: square; }
/* A wide screen: a table too wide for the column (its narrowest layout
   wider) takes the room to the right of it, up to the window's margin,
   instead of scrolling; the others keep the column's width. */
@media (min-width: 1460px) {
  main .scroll { width: fit-content; min-width: 100%; max-width: calc(100vw - 18rem - 5rem - 20px); }
}
@media (max-width: 900px) {
  .layout { display: block; }
  .toc { position: static; height: auto; border-right: none; border-bottom: 1px solid var(--line); }
  main { padding: 0 1rem 3rem; }
  .toc { padding: 0.4rem 1rem; }
  .toc-box > summary { display: list-item; font-weight: 600; padding: 0.3rem 0; }
}
@media (max-width: 600px) {
  html { scroll-padding-top: 7rem; }
  .top { flex-wrap: wrap; gap: 0.3rem 1rem; padding: 0.4rem 0.8rem; }
  .search { flex-basis: 100%; max-width: none; }
  /* Break an identifier only where the script put a <wbr> (after "_" and
     ".", at a capital after a small letter): "anywhere" let a table's
     columns shrink to a letter each. A segment wider than the line still
     breaks rather than sticking out. */
  main code, main a { overflow-wrap: break-word; }
  h1 { font-size: 1.6rem; }
  /* A summary table (one row of labels over one of values) as label and
     value side by side, a row each: column-major in a grid with as many
     rows as the table has columns. */
  table.facts { display: grid; grid-template-columns: fit-content(7rem) minmax(0, 1fr);
    grid-auto-flow: column; grid-template-rows: repeat(4, auto); }
  table.facts th, table.facts td { padding: 0.3rem 0.45rem; }
  table.facts:has(tr > :nth-child(5)) { grid-template-rows: repeat(5, auto); }
  table.facts:has(tr > :nth-child(6)) { grid-template-rows: repeat(6, auto); }
  table.facts:has(tr > :nth-child(7)) { grid-template-rows: repeat(7, auto); }
  table.facts > tbody, table.facts tr { display: contents; }
}
/* Print: the reference on paper, dense (a page of JDK 17's spec was 352
   A4 pages, the JDK's own 144): small type, tight margins and cells, no
   page break before each category and none kept out of a long table or
   example (each left most of a page blank), no permalink marks. */
@media print {
  .top, .toc, .skip, .self { display: none !important; }
  .layout { display: block; }
  body { font-size: 8.5pt; line-height: 1.4; color: #000; background: #fff; }
  pre { line-height: 1.3; }
  .para { height: 0.4em; }
  table { margin: 0.3rem 0; }
  h4 { margin: 0.6rem 0 0.2rem; }
  main { padding: 0; max-width: none; }
  a { color: #000; }
  .item, .toc, .part > section:not(.item) { content-visibility: visible; }
  h1, h2, h3, h4 { line-height: 1.15; }
  h2 { margin-top: 1.2rem; }
  h3 { margin-top: 1rem; }
  .item { margin-top: 0.8rem; }
  th, td { padding: 0.15rem 0.35rem; }
  pre { padding: 0.3rem 0.5rem; }
  .item h3, tr { break-inside: avoid; }
  h2, h3, h4, caption { break-after: avoid; }
  :target { background: none; }
}
]]></xsl:template>

  <xsl:template name="js"><![CDATA[
(function () {
  "use strict";
  // An item off screen is neither laid out nor painted, nor are the
  // sections outside items (indexes, tables, whole categories) and the
  // contents when scrolled away: every frame (a keystroke's results, say)
  // then costs what is on screen, not the page's 50,000 boxes (make bench,
  // JDK 25, throttled 4x: a keystroke 136-221 ms -> 48-80 ms under load).
  // Until shown once an item is taken to be 80rem tall, about the average
  // on a desktop screen (JDK 25: 221 items, 1,350 px), so that what comes
  // on screen moves little. Added here, not in the stylesheet, as the Nu
  // Html Checker does not know contain-intrinsic-size; without the script
  // the page is laid out whole. First in the sheet, so print overrides it.
  var sheet = document.querySelector("head > style").sheet;
  sheet.insertRule(".toc, .part > section:not(.item) { content-visibility: auto; contain-intrinsic-size: auto 60rem; }", 0);
  sheet.insertRule(".item { content-visibility: auto; contain-intrinsic-size: auto 80rem; }", 0);
  // A jump (a link, Back, a page opened at #id) lands its target below the
  // sticky bar: the browser scrolls once, to where the estimates above put
  // it, and the items that then come on screen take their real height and
  // push it away (by up to 22,000 px going Back). So the target is put in
  // place again each frame until it stays there three frames running, for
  // at most a second, and not once the reader scrolls or types.
  var landing = 0;
  function land() {
    var id = decodeURIComponent(location.hash.slice(1)), el = id && document.getElementById(id);
    if (!el) return;
    var run = ++landing, last = NaN, same = 0, frames = 0;
    var pad = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
    (function step() {
      if (run !== landing) return;
      var top = el.getBoundingClientRect().top;
      if (Math.abs(top - pad) > 0.5) el.scrollIntoView();
      same = Math.abs(top - last) < 0.5 ? same + 1 : 0;
      last = top;
      if (same < 3 && ++frames < 60) requestAnimationFrame(step);
    })();
  }
  var stop = function () { landing++; };
  ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (type) {
    window.addEventListener(type, stop, { passive: true, capture: true });
  });
  window.addEventListener("hashchange", land);
  // A link to the hash already shown moves nothing else.
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[href^='#']");
    if (a && a.getAttribute("href") === location.hash) requestAnimationFrame(land);
  });
  if (location.hash) land();
  // On a narrow screen the identifiers in code may break after "_" and
  // ".", and at a capital that follows a small letter or digit, and
  // nowhere else: a <wbr> at each such place (copied text is unchanged).
  // Done once, for code outside examples with a long enough word; the
  // contents' links (names in a narrow column) get theirs at any width.
  var narrow = window.matchMedia("(max-width: 600px)"), broken = false;
  var at = /[_.](?=[A-Za-z0-9])|[a-z0-9](?=[A-Z])/g;
  function wbrs(elements) {
    Array.prototype.forEach.call(elements, function (code) {
      if (code.closest("pre")) return;
      var texts = [], walk = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      for (var n = walk.nextNode(); n; n = walk.nextNode()) if (n.length >= 14) texts.push(n);
      texts.forEach(function (t) {
        var s = t.data, frag = null, from = 0, m;
        at.lastIndex = 0;
        while ((m = at.exec(s))) {
          var cut = m.index + 1;
          if (cut - from < 3 && from) continue;
          frag = frag || document.createDocumentFragment();
          frag.appendChild(document.createTextNode(s.slice(from, cut)));
          frag.appendChild(document.createElement("wbr"));
          from = cut;
        }
        if (!frag) return;
        frag.appendChild(document.createTextNode(s.slice(from)));
        t.parentNode.replaceChild(frag, t);
      });
    });
  }
  function breakable() {
    if (broken || !narrow.matches) return;
    broken = true;
    wbrs(document.querySelectorAll("main code"));
  }
  wbrs(document.querySelectorAll("#toc li > a"));
  breakable();
  narrow.addEventListener("change", breakable);
  var box = document.getElementById("search");
  var input = document.getElementById("search-box");
  var store = document.getElementById("search-index");
  var list = document.getElementById("search-results");
  if (!box || !input || !store || !list) return;
  box.hidden = false;
  // The index (the entries and the text each is matched against) is built
  // once, when the browser is idle after loading, or when the box takes
  // the focus, whichever comes first: never on a keystroke. data-index on
  // the box says it is built.
  var items, keys, names, titles, kinds, sinces, copies;
  function index() {
    if (items) return;
    items = Array.prototype.slice.call(store.children);
    // Sections are taken from the page itself: each one with an id that
    // the list does not name yet, under its heading.
    var named = {};
    items.forEach(function (li) { named[li.querySelector("a").getAttribute("href").slice(1)] = true; });
    Array.prototype.forEach.call(document.querySelectorAll("main section[id]"), function (sec) {
      var h = sec.querySelector("h1, h2, h3, h4");
      if (named[sec.id] || !h) return;
      var li = document.createElement("li"), a = document.createElement("a"), k = document.createElement("span");
      li.setAttribute("data-kind", "section");
      a.href = "#" + sec.id;
      var text = h.cloneNode(true), self = text.querySelector(".self");
      if (self) self.parentNode.removeChild(self);
      var title = document.createElement("span");
      title.className = "title";
      title.textContent = text.textContent.trim();
      k.className = "kind";
      k.textContent = "section";
      a.appendChild(title);
      a.appendChild(document.createTextNode(" "));
      a.appendChild(k);
      li.appendChild(a);
      store.appendChild(li);
      items.push(li);
    });
    // What a query is matched against: the entry (name, kind, title, since;
    // of the summary only its code, an event's constant: its words matched
    // a third of the page), and apart its names (its code: an event's constant
    // too) and its title, for ranking; its kind and since, for filters.
    keys = items.map(function (li) {
      var sum = li.querySelector(".sum"), text = li.textContent;
      if (sum) text = text.replace(sum.textContent, " ") + " " + Array.prototype.map.call(
        sum.querySelectorAll("code"), function (c) { return c.textContent; }).join(" ");
      return text.toLowerCase();
    });
    names = items.map(function (li) {
      return Array.prototype.map.call(li.querySelectorAll("code"), function (c) { return c.textContent.toLowerCase(); });
    });
    titles = items.map(function (li) {
      var t = li.querySelector(".title");
      return t ? t.textContent.toLowerCase() : "";
    });
    kinds = items.map(function (li) { return li.getAttribute("data-kind"); });
    sinces = items.map(function (li) { return li.getAttribute("data-since") || ""; });
    // An entry's node in the results, made the first time it matches and
    // kept: the index itself stays whole and hidden.
    copies = [];
    box.setAttribute("data-index", "built");
  }
  (window.requestIdleCallback || function (f) { setTimeout(f, 50); })(index, { timeout: 2000 });
  input.addEventListener("focus", index);
  // A keystroke puts at most FIRST entries in the list, and the next ones
  // (up to LIMIT) follow when the end of the list comes near its view (the
  // reader scrolls, or moves down with the keys): the rows a keystroke adds
  // are laid out, and the list's rows all painted again, in that frame;
  // rows the box does not show cost as much as those it does (make bench,
  // throttled 4x: p90 95-112 ms with 60 at once). 30 rows fill the box on
  // a screen up to 2,100 px tall.
  var FIRST = 30, LIMIT = 60;
  var empty = document.createElement("li");
  empty.className = "empty";
  empty.textContent = "No match";
  var more = document.createElement("li");
  more.className = "empty";
  var active = -1, shown = [], hits = [], any = false, scrolled = false;
  function setActive(i) {
    if (i >= shown.length - 1) extend();
    if (i >= shown.length) i = shown.length - 1;
    if (active >= 0 && shown[active]) shown[active].classList.remove("active");
    active = i;
    if (active >= 0 && shown[active]) {
      shown[active].classList.add("active");
      shown[active].scrollIntoView({ block: "nearest" });
    }
  }
  // Exact names and titles first, then those that start with the query,
  // then those whose name or title holds it, then the rest (a word of the
  // summary), each in the page's order.
  function rank(i, q) {
    var ns = names[i], t = titles[i], best = 3;
    for (var k = 0; k < ns.length; k++) {
      var n = ns[k];
      if (n === q || n.slice(n.lastIndexOf(".") + 1) === q) return 0;
      if (n.indexOf(q) === 0) best = 1;
      else if (best > 2 && n.indexOf(q) >= 0) best = 2;
    }
    if (t === q) return 0;
    if (t.indexOf(q) === 0) return 1;
    return best > 2 && t.indexOf(q) >= 0 ? 2 : best;
  }
  // Whether w is within one edit (a letter added, dropped, changed, or two
  // swapped) of the whole of s (0) or of a part of it (1); -1 if not. A
  // typo's match costs a row of numbers per letter of w, and is tried only
  // when nothing matches as typed.
  function near(w, s) {
    var m = w.length, prev2 = null, prev = new Array(s.length + 1), cur;
    for (var j = 0; j <= s.length; j++) prev[j] = 0;
    var whole = [];
    for (j = 0; j <= s.length; j++) whole[j] = j;
    for (var i = 1; i <= m; i++) {
      cur = [i];
      var w2 = [i], low = i;
      for (j = 1; j <= s.length; j++) {
        var c = w.charCodeAt(i - 1) === s.charCodeAt(j - 1) ? 0 : 1;
        var d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + c);
        var e = Math.min(whole[j] + 1, w2[j - 1] + 1, whole[j - 1] + c);
        if (i > 1 && j > 1 && w.charCodeAt(i - 1) === s.charCodeAt(j - 2) && w.charCodeAt(i - 2) === s.charCodeAt(j - 1)) {
          d = Math.min(d, prev2[0][j - 2] + 1);
          e = Math.min(e, prev2[1][j - 2] + 1);
        }
        cur[j] = d;
        w2[j] = e;
        if (d < low) low = d;
      }
      if (low > 1) return -1;
      prev2 = [prev, whole];
      prev = cur;
      whole = w2;
    }
    if (whole[s.length] <= 1) return 0;
    return Math.min.apply(null, prev) <= 1 ? 1 : -1;
  }
  // "event:", "cap:", "err:" and "type:" keep one kind of entry; "since N"
  // (or "since:N") those a version N added.
  var FILTERS = { "event": ["event"], "cap": ["capability"], "err": ["error"],
                  "type": ["type", "callback", "constants"] };
  function parse(q) {
    var out = { kinds: null, since: "", words: [] }, m;
    if ((m = /^(event|cap|err|type):\s*/.exec(q))) { out.kinds = FILTERS[m[1]]; q = q.slice(m[0].length); }
    if ((m = /(?:^|\s)since[:\s]\s*(\d+(?:\.\d+)?)(?=\s|$)/.exec(q))) {
      out.since = m[1];
      q = q.slice(0, m.index) + " " + q.slice(m.index + m[0].length);
    }
    out.words = q.split(/\s+/).filter(Boolean);
    out.text = out.words.join(" ");
    return out;
  }
  // Make the list's children exactly `want`, in order, moving only what
  // differs: typing on mostly keeps the matches, and each node touched is
  // styled and laid out again.
  function render(want) {
    var keep = new Set(want), cur = list.firstChild;
    for (var i = 0; i < want.length; i++) {
      while (cur && !keep.has(cur)) { var next = cur.nextSibling; list.removeChild(cur); cur = next; }
      if (cur === want[i]) cur = cur.nextSibling;
      else list.insertBefore(want[i], cur);
    }
    while (cur) { var after = cur.nextSibling; list.removeChild(cur); cur = after; }
  }
  // The first n matches in the list (at most LIMIT), and a line saying
  // how many more there are.
  function copy(h) { return copies[h[1]] || (copies[h[1]] = items[h[1]].cloneNode(true)); }
  function show(n) {
    shown = shown.concat(hits.slice(shown.length, Math.min(n, LIMIT)).map(copy));
    var want = shown.slice();
    if (any && !shown.length) want.push(empty);
    if (hits.length > shown.length) {
      var text = (hits.length - shown.length) + " more: " + (shown.length < LIMIT ? "scroll or type on" : "type on to narrow");
      if (more.textContent !== text) more.textContent = text;
      want.push(more);
    }
    render(want);
    // Watched afresh, so that a line already near the view is reported.
    if (nearEnd && shown.length < Math.min(hits.length, LIMIT)) { nearEnd.unobserve(more); nearEnd.observe(more); }
  }
  function extend() {
    if (shown.length < Math.min(hits.length, LIMIT)) show(LIMIT);
  }
  // The "more" line within half a box of the list's view: the rest follows.
  var nearEnd = window.IntersectionObserver && new IntersectionObserver(function (entries) {
    if (entries.some(function (e) { return e.isIntersecting; })) extend();
  }, { root: list, rootMargin: "0px 0px 50% 0px" });
  // At most FIRST entries are put in the list by a keystroke, so it costs
  // little however much matches.
  function filter() {
    index();
    var p = parse(input.value.toLowerCase().trim()), words = p.words, q = p.text;
    any = words.length || p.kinds || p.since;
    hits = [];
    var i, w;
    var kept = function (i) {
      return (!p.kinds || p.kinds.indexOf(kinds[i]) >= 0) && (!p.since || sinces[i] === p.since);
    };
    if (any) {
      for (i = 0; i < items.length; i++) {
        if (!kept(i)) continue;
        var ok = true;
        for (w = 0; w < words.length && ok; w++) ok = keys[i].indexOf(words[w]) >= 0;
        if (ok) hits.push([words.length ? rank(i, q) : 0, i]);
      }
      // Nothing as typed: names within one edit of each word of 4 letters
      // or more (a word found as typed counts too), whole names first.
      if (!hits.length && words.length) {
        for (i = 0; i < items.length; i++) {
          if (!kept(i)) continue;
          var score = 0;
          for (w = 0; w < words.length && score >= 0; w++) {
            if (keys[i].indexOf(words[w]) >= 0) continue;
            var best = -1;
            if (words[w].length >= 4)
              for (var k = 0; k < names[i].length && best !== 0; k++) {
                var r = near(words[w], names[i][k]);
                if (r >= 0 && (best < 0 || r < best)) best = r;
              }
            score = best < 0 ? -1 : Math.max(score, best);
          }
          if (score >= 0) hits.push([4 + score, i]);
        }
      }
      hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    }
    if (active >= 0 && shown[active]) shown[active].classList.remove("active");
    shown = [];
    show(FIRST);
    if (list.hidden !== !any) list.hidden = !any;
    // The first is active. The list goes back to its top only if it was
    // scrolled: setting scrollTop lays out the page at once.
    if (scrolled) { list.scrollTop = 0; scrolled = false; }
    active = shown.length ? 0 : -1;
    if (active === 0) shown[0].classList.add("active");
  }
  list.addEventListener("scroll", function () { scrolled = true; }, { passive: true });
  input.addEventListener("input", filter);
  input.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown") { setActive(active + 1); e.preventDefault(); }
    else if (e.key === "ArrowUp") { setActive(Math.max(active - 1, 0)); e.preventDefault(); }
    else if (e.key === "Enter" && shown[active]) { shown[active].querySelector("a").click(); }
    else if (e.key === "Escape") { input.value = ""; filter(); }
  });
  list.addEventListener("click", function (e) {
    if (e.target.closest("a")) { list.hidden = true; }
  });
  // The contents fold on a small screen, and fold again once a link in
  // them is followed; on a wide one they are always open.
  var toc = document.querySelector("#toc > details");
  var small = window.matchMedia("(max-width: 900px)");
  if (toc) {
    var fit = function () { toc.open = !small.matches; };
    fit();
    small.addEventListener("change", fit);
    toc.addEventListener("click", function (e) {
      if (small.matches && e.target.closest("a")) toc.open = false;
    });
  }
  // Where you are: the contents' link to the item, error, capability or
  // section at the top of the screen is marked (aria-current), its folded
  // group opened and scrolled into the contents' view, once a frame at
  // most while the page scrolls. What is at the top is the element there
  // (elementFromPoint): its nearest ancestor the contents name, or the id
  // in its table row (a capability's). Not on a small screen, where the
  // contents are folded above the page.
  if (toc) {
    var links = {}, current = null, queued = false;
    Array.prototype.forEach.call(toc.querySelectorAll("a[href^='#']"), function (a) {
      var id = decodeURIComponent(a.getAttribute("href").slice(1));
      if (!links[id]) links[id] = a;
    });
    var mainEl = document.getElementById("main");
    var here = function () {
      queued = false;
      if (!toc.open || small.matches) return;
      var r = mainEl.getBoundingClientRect();
      var pad = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
      var e = document.elementFromPoint(r.left + (parseFloat(getComputedStyle(mainEl).paddingLeft) || 0) + 8, pad + 4);
      var link = null;
      for (; e && e !== mainEl && !link; e = e.parentElement) {
        if (e.id && links[e.id]) link = links[e.id];
        else if (e.tagName === "TR") {
          var named = e.querySelector("[id]");
          if (named && links[named.id]) link = links[named.id];
        }
      }
      if (!link || link === current) return;
      if (current) current.removeAttribute("aria-current");
      current = link;
      link.setAttribute("aria-current", "location");
      for (var d = link.parentElement; d && d !== toc; d = d.parentElement)
        if (d.tagName === "DETAILS") d.open = true;
      // Scrolls the contents alone (scrollIntoView would move the page).
      var box = toc.parentElement, lr = link.getBoundingClientRect(), br = box.getBoundingClientRect();
      if (lr.top < br.top || lr.bottom > br.bottom)
        box.scrollTop += lr.top - br.top - br.height / 3;
    };
    // Items coming on screen take their real height and move what is at
    // the top without a scroll event: looked at again for 10 frames more.
    var again = 0;
    var later = function () {
      again = 10;
      if (!queued) { queued = true; requestAnimationFrame(look); }
    };
    var look = function () {
      here();
      if (--again > 0) { queued = true; requestAnimationFrame(look); }
    };
    window.addEventListener("scroll", later, { passive: true });
    window.addEventListener("hashchange", later);
    later();
  }
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== input) { input.focus(); e.preventDefault(); }
  });
})();
]]></xsl:template>
</xsl:stylesheet>
