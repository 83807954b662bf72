// jvmti.html on wide screens in headless Chromium, every item laid out:
// at 1920 px no table or example scrolls sideways in its own box (a table
// too wide for the column takes the room beside it), and at 1460 and 1920
// px nothing makes the page itself scroll sideways.
// usage: node wide.mjs PAGE.html...
// Prints "ok - ..." / "not ok - ..." lines for tests/run-all.
import { openChromium } from "./chromium.mjs";
import { basename, dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const pages = process.argv.slice(2);
let failed = 0;
function report(ok, what, detail) {
  console.log(`${ok ? "ok" : "not ok"} - docs: wide: ${what}`);
  if (!ok) {
    failed++;
    if (detail) console.log(String(detail).split("\n").map((l) => "    " + l).join("\n"));
  }
}

let browser;
try {
  browser = await openChromium({ viewport: { width: 1920, height: 1080 } });
  const page = await browser.context.newPage();
  for (const path of pages) {
    const name = basename(dirname(resolve(path)));
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(pathToFileURL(resolve(path)).href, { waitUntil: "load" });
    // Every item laid out (the script lets those off screen wait).
    await page.addStyleTag({ content: ".item, .part > section, .toc { content-visibility: visible !important; }" });
    for (const width of [1920, 1460]) {
      await page.setViewportSize({ width, height: 1080 });
      const m = await page.evaluate(() => {
        const boxes = [...document.querySelectorAll("main .scroll, main pre")];
        const scrolling = boxes.filter((b) => b.scrollWidth > b.clientWidth + 1)
          .map((b) => `${b.closest("[id]").id}: ${b.scrollWidth} px in ${b.clientWidth}`);
        return { n: boxes.length, scrolling, page: document.documentElement.scrollWidth,
                 width: document.documentElement.clientWidth };
      });
      if (width === 1920)
        report(m.n > 100 && m.scrolling.length === 0,
          `${name}: at 1920 px none of the ${m.n} tables and examples scrolls sideways`, m.scrolling.join("\n"));
      report(m.page <= m.width, `${name}: at ${width} px the page does not scroll sideways (${m.page} px in ${m.width})`);
    }
  }
} catch (e) {
  report(false, "browser run", e.stack || e);
} finally {
  if (browser) await browser.close();
}
process.exit(failed ? 1 : 0);
