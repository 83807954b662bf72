// jvmti.html on a 375 px phone in headless Chromium: the tables read.
// Each summary table (table.facts) fits its box, no taller than three
// times its height at 1,280 px; no identifier in a table breaks inside a
// word (only after "_", ".", "-", a blank, a comma or "(", or before a
// capital that follows a small letter or digit; examples in <pre> aside),
// and copying one gives it whole; a screenshot.
// usage: node phone.mjs PAGE.html SCREENSHOT_DIR
// Prints "ok - ..." / "not ok - ..." lines for tests/run-all.
import { openChromium } from "./chromium.mjs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [page_path, shots] = process.argv.slice(2);
const url = pathToFileURL(resolve(page_path)).href;
let failed = 0;
function report(ok, what, detail) {
  console.log(`${ok ? "ok" : "not ok"} - docs: phone: ${what}`);
  if (!ok) {
    failed++;
    if (detail) console.log(String(detail).split("\n").map((l) => "    " + l).join("\n"));
  }
}

// Every item laid out, so that what is measured is real (the page lays
// out only what is on screen).
const ALL = ".item, .toc, .part > section { content-visibility: visible !important; }";

function heights() {
  return [...document.querySelectorAll("main table.facts")].map((t) => t.getBoundingClientRect().height);
}

// The tables' identifiers: where each breaks, by the characters either
// side of each line end inside it.
function breaks() {
  const bad = [];
  let wrapped = 0, seen = 0;
  for (const code of document.querySelectorAll("main table code")) {
    if (code.closest("pre") || code.getClientRects().length < 2) continue;
    seen++;
    const text = code.textContent;
    const range = document.createRange();
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    let prevTop = null, prevChar = "", offset = 0;
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      for (let i = 0; i < t.length; i++, offset++) {
        range.setStart(t, i);
        range.setEnd(t, i + 1);
        const r = range.getClientRects()[0];
        if (!r) continue;
        const c = t.data[i];
        if (prevTop !== null && r.top > prevTop + 2) {
          wrapped++;
          // (After a hyphen too: agent-|lib-name.)
          const ok = /[-_.,( ]/.test(prevChar) || c === " " || (/[a-z0-9]/.test(prevChar) && /[A-Z]/.test(c));
          if (!ok) bad.push(`${text.slice(0, offset)}|${text.slice(offset)}`);
        }
        if (c !== " ") prevTop = r.top;
        prevChar = c;
      }
    }
  }
  return { bad, wrapped, seen };
}

let browser;
try {
  browser = await openChromium({ viewport: { width: 1280, height: 900 } });
  const context = browser.context;
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "load" });
  await page.addStyleTag({ content: ALL });
  const desktop = await page.evaluate(heights);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const phone = await page.evaluate(heights);
  const tall = [], wide = await page.evaluate(() => [...document.querySelectorAll("main table.facts")]
    .filter((t) => t.parentElement.scrollWidth > t.parentElement.clientWidth + 1)
    .map((t) => (t.closest("[id]") || {}).id + ` ${t.parentElement.scrollWidth} > ${t.parentElement.clientWidth}`));
  phone.forEach((h, i) => { if (h > 3 * desktop[i]) tall.push(`table ${i}: ${Math.round(h)} px, ${Math.round(desktop[i])} px at 1280`); });
  report(desktop.length > 0 && wide.length === 0, `at 375 px each of the ${desktop.length} summary tables fits its width`,
    wide.slice(0, 10).join("\n"));
  report(desktop.length > 0 && tall.length === 0,
    `at 375 px no summary table is taller than 3x its height at 1,280 px (tallest ${Math.round(Math.max(...phone))} px)`,
    tall.slice(0, 10).join("\n"));
  const b = await page.evaluate(breaks);
  report(b.seen > 0 && b.bad.length === 0,
    `at 375 px no identifier in a table breaks inside a word (${b.wrapped} line ends in ${b.seen} wrapped identifiers)`,
    `${b.bad.length} inside a word:\n` + b.bad.slice(0, 15).join("\n"));
  // Copying an identifier that wraps gives it whole.
  const copied = await page.evaluate(() => {
    const code = [...document.querySelectorAll("main table code")].find((c) => c.getClientRects().length > 1 && !/ /.test(c.textContent));
    if (!code) return null;
    const sel = getSelection();
    sel.removeAllRanges();
    const r = document.createRange();
    r.selectNodeContents(code);
    sel.addRange(r);
    return { text: code.textContent, copied: sel.toString() };
  });
  report(copied && copied.text === copied.copied, "at 375 px a wrapped identifier is copied whole", JSON.stringify(copied));
  await page.goto(url + "#Breakpoint", { waitUntil: "load" });
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(shots, "jvmti-html-375.png") });
  report(true, `screenshot saved (${join(shots, "jvmti-html-375.png")})`);
} catch (e) {
  report(false, "browser run", e.stack || e);
} finally {
  if (browser) await browser.close();
}
process.exit(failed ? 1 : 0);
