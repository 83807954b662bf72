// jvmti.html printed by headless Chromium to an A4 PDF: it prints, with no
// permalink mark ("#") on paper, and, given the JDK's own page of the same
// spec, in at most 25% more pages than that page.
// usage: node print.mjs PAGE.html [JDK_PAGE.html]
// Prints "ok - ..." / "not ok - ..." lines for tests/run-all.
import { openChromium } from "./chromium.mjs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [page_path, jdk_path] = process.argv.slice(2);
let failed = 0;
function report(ok, what, detail) {
  console.log(`${ok ? "ok" : "not ok"} - docs: print: ${what}`);
  if (!ok) {
    failed++;
    if (detail) console.log(String(detail).split("\n").map((l) => "    " + l).join("\n"));
  }
}

// A PDF's pages: its page objects (Chromium writes each as /Type /Page).
const pages = (pdf) => (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) || []).length;

let browser;
try {
  browser = await openChromium();
  const context = browser.context;
  const page = await context.newPage();
  const print = async (path) => {
    await page.goto(pathToFileURL(resolve(path)).href, { waitUntil: "load" });
    await page.emulateMedia({ media: "print" });
    return page.pdf({ format: "A4", timeout: 0 });
  };
  const ours = await print(page_path);
  const n = pages(ours);
  report(ours.subarray(0, 5).toString() === "%PDF-" && n > 10, `the page prints to a PDF (${n} A4 pages)`);
  const marks = await page.evaluate(() => [...document.querySelectorAll("a.self")]
    .filter((a) => getComputedStyle(a).display !== "none").length);
  report(marks === 0, "no permalink mark is printed", `${marks} shown`);
  if (jdk_path) {
    const jdk = pages(await print(jdk_path));
    report(n <= jdk * 1.25, `at most 25% more pages than the JDK's own page (${n} against ${jdk})`);
  }
} catch (e) {
  report(false, "browser run", e.stack || e);
} finally {
  if (browser) await browser.close();
}
process.exit(failed ? 1 : 0);
