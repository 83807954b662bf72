// make bench: a keystroke in the search box of a jvmti.html, with the CPU
// throttled 4x (Chromium's Emulation.setCPUThrottlingRate), from the
// character entering the box to the next frame painted. Headless Chromium
// through playwright-core, as browser.mjs runs it.
// usage: node search-bench.mjs PAGE.html [N]   (N keystrokes, default 60)
// Prints one line: the median and the 90th percentile, in ms.
import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [page_path, n_arg] = process.argv.slice(2);
const n = Number(n_arg || 60);
const profile = mkdtempSync(join(tmpdir(), "jvmtigen-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  viewport: { width: 1280, height: 900 },
});
try {
  const page = await context.newPage();
  await page.goto(pathToFileURL(resolve(page_path)).href, { waitUntil: "load" });
  // As a reader would: the page has settled (the script builds its index
  // when the browser is idle) before the first key.
  await page.waitForFunction(() => document.getElementById("search").dataset.index === "built",
    null, { timeout: 10000 }).catch(() => {});
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  // Queries that match much and little, typed a letter at a time, the box
  // emptied between them (not timed), until n keystrokes are timed.
  const queries = ["getthreadstate", "jvmti_error", "e", "breakpoint", "can_", "jvmtiheap", "thread"];
  const times = [];
  for (let k = 0; times.length < n; k++) {
    const q = queries[k % queries.length];
    await page.evaluate(() => { const i = document.getElementById("search-box"); i.value = ""; i.dispatchEvent(new Event("input")); });
    for (const ch of q) {
      if (times.length >= n) break;
      times.push(await page.evaluate((ch) => new Promise((done) => {
        const input = document.getElementById("search-box");
        const t0 = performance.now();
        input.value += ch;
        input.dispatchEvent(new Event("input"));
        // rAF runs before the frame's style, layout and paint; a task
        // queued from it runs after them.
        requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
      }), ch));
    }
  }
  times.sort((a, b) => a - b);
  const at = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  console.log(`bench: search keystroke, CPU throttled 4x: median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms (${times.length} keystrokes; goal 100 ms)`);
} finally {
  await context.close().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
}
