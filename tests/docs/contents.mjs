// The contents sidebar of jvmti.html in headless Chromium: it lists the
// types, capabilities and errors too, marks where you are as you jump and
// scroll (its link shown in the sidebar's view), is used with the keyboard
// alone, and stays folded on a phone.
// usage: node contents.mjs PAGE.html
// Prints "ok - ..." / "not ok - ..." lines for tests/run-all.
import { openChromium, settle } from "./chromium.mjs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [page_path] = process.argv.slice(2);
const url = pathToFileURL(resolve(page_path)).href;
let failed = 0;
function report(ok, what, detail) {
  console.log(`${ok ? "ok" : "not ok"} - docs: contents: ${what}`);
  if (!ok) {
    failed++;
    if (detail) console.log(String(detail).split("\n").map((l) => "    " + l).join("\n"));
  }
}

// In the page: the contents' marked links, and whether the one marked is
// inside the sidebar's visible part.
function marked() {
  const nav = document.getElementById("toc"), as = [...nav.querySelectorAll("a[aria-current]")];
  const a = as[0], n = nav.getBoundingClientRect(), r = a && a.getBoundingClientRect();
  return { n: as.length, href: a && a.getAttribute("href").slice(1),
           inView: !!a && r.height > 0 && r.top >= n.top - 1 && r.bottom <= n.bottom + 1 };
}
const jump = (page, id) => page.evaluate((id) => { location.hash = "#" + id; }, id);
// The marking follows the scroll a frame later.
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

let browser, phone;
try {
  browser = await openChromium({ viewport: { width: 1280, height: 900 } });
  const page = await browser.context.newPage();
  await page.goto(url, { waitUntil: "load" });
  // Every error, capability and type (as the page's own tables list them)
  // has its link in the contents.
  const lacking = await page.evaluate(() => {
    const inToc = new Set([...document.querySelectorAll("#toc a[href^='#']")].map((a) => a.getAttribute("href").slice(1)));
    const want = [...document.querySelectorAll("main dl.errors dt[id]")].map((e) => e.id);
    for (const sel of ["#CapabilityIndex tr th a", "#StructureTypeDefinitions tr th a",
                       "#FunctionTypeDefinitions tr th a", "#EnumerationDefinitions tr th a"])
      for (const a of document.querySelectorAll(sel)) want.push(a.getAttribute("href").slice(1));
    return { n: want.length, missing: want.filter((id) => !inToc.has(id)) };
  });
  report(lacking.n > 100 && lacking.missing.length === 0,
    `the contents link every error, capability, structure, function type and enumeration (${lacking.n})`,
    lacking.missing.slice(0, 20).join("\n"));
  // Where you are, after a jump.
  for (const item of ["GetStackTrace", "JVMTI_ERROR_WRONG_PHASE", "jvmtiCapabilities.can_tag_objects",
                    "jvmtiFrameInfo", "VMDeath", ["heapCallbacks", "Heap"]]) {
    // (An id the contents lack, such as an intro of a category, marks
    // what holds it.)
    const [id, mark] = Array.isArray(item) ? item : [item, item];
    await jump(page, id);
    await page.evaluate(settle);
    await frames(page);
    const m = await page.evaluate(marked);
    report(m.n === 1 && m.href === mark && m.inView, `after a jump to #${id} the contents mark #${mark}, in the sidebar's view`,
      JSON.stringify(m));
  }
  // ... and as you scroll: from GetStackTrace down past it, the mark moves
  // on to what is then at the top.
  await jump(page, "GetStackTrace");
  await page.evaluate(settle);
  await page.mouse.move(700, 500);
  for (let i = 0; i < 10; i++) { await page.mouse.wheel(0, 400); await frames(page); }
  await frames(page);
  const moved = await page.evaluate(marked);
  const below = await page.evaluate((id) => {
    const e = document.getElementById(id);
    return e && e.getBoundingClientRect().top < 80;
  }, moved.href || "");
  report(moved.n === 1 && moved.href !== "GetStackTrace" && below && moved.inView,
    `scrolling on from GetStackTrace marks the item then at the top (#${moved.href})`, JSON.stringify(moved));
  // The keyboard alone: a folded group opens with Enter on its summary,
  // Tab reaches its links, Enter follows one.
  const kb = await page.evaluate(() => {
    const d = [...document.querySelectorAll("#toc details details")].find((x) => x.querySelector("a[href='#JVMTI_ERROR_NONE']"));
    if (!d) return null;
    d.open = false;
    d.querySelector("summary").focus();
    return d.querySelector("summary a").getAttribute("href");
  });
  await page.keyboard.press("Enter");
  const opened = await page.evaluate(() => [...document.querySelectorAll("#toc details details")]
    .find((x) => x.querySelector("a[href='#JVMTI_ERROR_NONE']")).open);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  const focused = await page.evaluate(() => document.activeElement.getAttribute("href"));
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => location.hash === "#JVMTI_ERROR_NONE", null, { timeout: 3000 }).catch(() => {});
  const hash = await page.evaluate(() => location.hash);
  report(kb && opened && focused === "#JVMTI_ERROR_NONE" && hash === "#JVMTI_ERROR_NONE",
    "with the keyboard alone a group of the contents opens (Enter), its first link is reached (Tab) and followed (Enter)",
    JSON.stringify({ kb, opened, focused, hash }));
  // A phone: the contents stay folded as you jump.
  phone = await openChromium({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const p = await phone.context.newPage();
  await p.goto(url + "#GetStackTrace", { waitUntil: "load" });
  await p.evaluate(settle);
  await frames(p);
  const folded = await p.evaluate(() => !document.querySelector("#toc > details").open &&
    !document.querySelector("#toc a[href='#GetStackTrace']").checkVisibility() &&
    !document.querySelector("#toc [aria-current]"));
  report(folded, "at 390 px the contents stay folded at #GetStackTrace");
} catch (e) {
  report(false, "browser run", e.stack || e);
} finally {
  if (browser) await browser.close();
  if (phone) await phone.close();
}
process.exit(failed ? 1 : 0);
