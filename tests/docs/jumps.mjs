// Jumps on jvmti.html in headless Chromium: following a link to an item,
// and going Back through those jumps, land the item's top where the page
// puts a target (its scroll padding below the sticky bar), within 8 px,
// however many items above it were never laid out (content-visibility).
// usage: node jumps.mjs PAGE.html [N]   (N random ids besides the fixed ones)
// Prints "ok - ..." / "not ok - ..." lines for tests/run-all.
import { openChromium, settle, landed } from "./chromium.mjs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [page_path, count] = process.argv.slice(2);
const url = pathToFileURL(resolve(page_path)).href;
const N = Number(count || 50);
let failed = 0;
function report(ok, what, detail) {
  console.log(`${ok ? "ok" : "not ok"} - docs: jumps: ${what}`);
  if (!ok) {
    failed++;
    if (detail) console.log(String(detail).split("\n").map((l) => "    " + l).join("\n"));
  }
}

let browser;
try {
  browser = await openChromium({ viewport: { width: 1280, height: 900 } });
  const context = browser.context;
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "load" });
  // The ids: fixed ones the issue measured, then N of the page's sections,
  // terms and tables with an id, picked with a fixed seed.
  const ids = await page.evaluate((n) => {
    const all = [...document.querySelectorAll("main section[id], main dt[id], main table[id], main tr[id]")]
      .map((e) => e.id);
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const fixed = ["GetThreadState", "jvmtiCapabilities.can_tag_objects", "JVMTI_ERROR_WRONG_PHASE", "Breakpoint",
                   "jvmtiFrameInfo", "FollowReferences", "GetPhase", "VMDeath"].filter((id) => all.includes(id));
    const picked = [];
    while (picked.length < n && all.length) picked.push(all[Math.floor(rnd() * all.length)]);
    return fixed.concat(picked);
  }, N);
  const misses = [];
  // Each jump as a reader makes it: a click on a link to the item (the
  // link made for the test, as the search results' are).
  for (const id of ids) {
    await page.evaluate((id) => {
      const a = document.createElement("a");
      a.href = "#" + id;
      document.body.appendChild(a);
      a.click();
      a.remove();
    }, id);
    const r = await page.evaluate(settle);
    if (!landed(r)) misses.push(JSON.stringify(r));
  }
  report(misses.length === 0, `${ids.length} jumps land their item within 8 px of the top`, misses.slice(0, 10).join("\n"));
  const back = [];
  for (let i = ids.length - 2; i >= Math.max(0, ids.length - 21); i--) {
    await page.goBack();
    const r = await page.evaluate(settle);
    if (!landed(r) || r.id !== ids[i]) back.push(JSON.stringify(r) + " want " + ids[i]);
  }
  report(back.length === 0, `${Math.min(20, ids.length - 1)} Back presses land the previous item within 8 px`,
    back.slice(0, 10).join("\n"));
  // A deep link opened as a new page lands too.
  await page.goto(url + "#GetThreadState", { waitUntil: "load" });
  const r = await page.evaluate(settle);
  report(landed(r), "a page opened at #GetThreadState shows it at the top", JSON.stringify(r));
} catch (e) {
  report(false, "browser run", e.stack || e);
} finally {
  if (browser) await browser.close();
}
process.exit(failed ? 1 : 0);
