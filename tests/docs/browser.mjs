// jvmti.html in a real browser: headless Chromium driven by playwright-core.
// usage: node browser.mjs PAGE.html SCREENSHOT_DIR [MODEL.json]
// (MODEL.json: `jvmtigen model` of the page's spec, for what search covers)
// Prints "ok - ..." / "not ok - ..." lines for tests/run-all.
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [page_path, shots, model_path] = process.argv.slice(2);
const url = pathToFileURL(resolve(page_path)).href;
let failed = 0;
function report(ok, what, detail) {
  console.log(`${ok ? "ok" : "not ok"} - docs: browser: ${what}`);
  if (!ok) {
    failed++;
    if (detail) console.log(String(detail).split("\n").map((l) => "    " + l).join("\n"));
  }
}

// In the page: its width against the viewport's, and the outermost
// elements that stick out past the right edge outside a box of their own
// that scrolls.
function overflow() {
  const width = document.documentElement.clientWidth, culprits = [];
  const scrolls = (e) => { for (; e; e = e.parentElement) if (/auto|scroll|hidden/.test(getComputedStyle(e).overflowX) && e !== document.documentElement && e !== document.body) return true; return false; };
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (r.right > width + 0.5 && r.width > 0 && !scrolls(e.parentElement) && !(e.parentElement && e.parentElement.getBoundingClientRect().right > width + 0.5)) {
      culprits.push(`${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${e.className} right ${Math.round(r.right)}`);
      if (culprits.length >= 10) break;
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, culprits };
}

// Each browser gets a fresh profile directory (playwright passes it as
// --user-data-dir).
const profiles = [];
function launch(options) {
  const profile = mkdtempSync(join(tmpdir(), "jvmtigen-chromium-"));
  profiles.push(profile);
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    ...options,
  });
}
const contexts = [];
try {
  const context = await launch({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));

  await page.goto(url, { waitUntil: "load" });
  report(problems.length === 0, "the page loads with no console error", problems.join("\n"));

  const search = page.locator("#search-box");
  report(await search.isVisible(), "the search box is shown when JavaScript runs");

  // The search index is built once, when the page is idle after loading,
  // not on the first keystroke: the box says so (data-index) before anyone
  // has typed or focused it.
  const built = await page.waitForFunction(() => document.getElementById("search").dataset.index === "built",
    null, { timeout: 10000 }).then(() => true, () => false);
  report(built && !(await page.evaluate(() => document.activeElement && document.activeElement.id === "search-box")),
    "the search index is built at idle after loading, before the first keystroke");

  // Search covers everything with an id: what the model names (functions,
  // events, constants, errors, types and their fields, capabilities,
  // callbacks, base types) and every section of the page.
  if (model_path) {
    const m = JSON.parse(readFileSync(model_path, "utf-8"));
    const want = [];
    for (const f of m.functions) want.push(f.id);
    for (const e of m.events) want.push(e.id);
    for (const c of m.callbacks) want.push(c.id);
    for (const t of m.typedefs) { want.push(t.id); for (const f of t.fields) want.push(`${t.id}.${f.name}`); }
    if (m.capabilities) for (const f of m.capabilities.fields) want.push(`${m.capabilities.id}.${f.id}`);
    for (const g of m.constant_groups) { want.push(g.id); for (const c of g.constants) want.push(c.id); }
    for (const e of m.errors) want.push(e.id);
    for (const b of m.basetypes) want.push(b.id);
    const listed = new Set(await page.$$eval("#search-index li[data-kind] a", (as) => as.map((a) => a.getAttribute("href").slice(1))));
    const sections = await page.$$eval("main section[id]", (ss) => ss.map((s) => s.id));
    const missing = [...want, ...sections].filter((id) => !listed.has(id));
    report(missing.length === 0 && want.length > 500,
      `search covers every id of the model (${want.length}) and every section (${sections.length})`,
      missing.slice(0, 20).join("\n"));
  }
  const visible = () => page.$$eval("#search-results li[data-kind]",
    (lis) => lis.filter((li) => !li.hidden).map((li) => li.textContent.replace(/\s+/g, " ").trim()));
  const total = await page.$$eval("#search-index li[data-kind]", (l) => l.length);
  await search.click();
  await search.pressSequentially("GetThread", { delay: 15 });
  const some = await visible();
  report(some.length > 0 && some.length < total && some.every((t) => t.toLowerCase().includes("getthread")),
    `typing "GetThread" filters the list (${some.length} of ${total} shown)`, some.slice(0, 10).join("\n"));
  await search.pressSequentially("State", { delay: 15 });
  const fewer = await visible();
  report(fewer.length > 0 && fewer.length < some.length && fewer[0].startsWith("GetThreadState"),
    `typing on narrows it ("GetThreadState": ${fewer.length} shown)`, fewer.join("\n"));
  report(await page.locator("#search-results").isVisible(), "the results list is visible while typing");
  await search.fill("");
  await search.pressSequentially("THREAD_STATE_ALIVE", { delay: 5 });
  const consts = await visible();
  report(consts.some((t) => t.startsWith("JVMTI_THREAD_STATE_ALIVE")), "constants are searchable", consts.join("\n"));
  await search.fill("");
  await search.pressSequentially("invalid_thread", { delay: 5 });
  const errs = await visible();
  report(errs.some((t) => t.startsWith("JVMTI_ERROR_INVALID_THREAD")), "errors are searchable", errs.join("\n"));
  await search.fill("");
  await search.pressSequentially("VMInit", { delay: 5 });
  const evs = await visible();
  report(evs.some((t) => t.startsWith("VMInit")), "events are searchable", evs.join("\n"));
  await search.press("Enter");
  await page.waitForFunction(() => location.hash === "#VMInit");
  report(true, "Enter follows the first match (#VMInit)");
  await search.fill("");

  // Exact names (an entry's code: an event's constant too) or titles first,
  // then those that start with the query, then those whose name or title
  // holds it, then the rest (a word of the summary); Enter opens the first.
  const ranks = (q) => page.$$eval("#search-results li[data-kind]", (lis, q) => lis.filter((li) => !li.hidden).map((li) => {
    const ns = [...li.querySelectorAll("code")].map((c) => c.textContent.toLowerCase());
    const t = (li.querySelector(".title") || { textContent: "" }).textContent.toLowerCase();
    if (ns.some((n) => n === q || n.split(".").pop() === q) || t === q) return 0;
    if (ns.some((n) => n.startsWith(q)) || t.startsWith(q)) return 1;
    return ns.some((n) => n.includes(q)) || t.includes(q) ? 2 : 3;
  }), q);
  for (const [q, exact] of [["breakpoint", true], ["thread", true], ["suspend", false],
                            ["can_tag_objects", true], ["jint", true]]) {
    await search.fill("");
    await search.pressSequentially(q, { delay: 5 });
    const r = await ranks(q);
    report(r.length > 0 && (!exact || r[0] === 0) && r.every((x, i) => i === 0 || r[i - 1] <= x),
      `searching "${q}": the exact match first, then prefixes, then the rest`, JSON.stringify(r.slice(0, 30)));
  }
  await search.fill("");
  await search.pressSequentially("breakpoint", { delay: 5 });
  await search.press("Enter");
  await page.waitForFunction(() => location.hash === "#Breakpoint");
  report(true, "Enter on \"breakpoint\" opens the Breakpoint event");
  await search.fill("");

  // A keystroke rebuilds little: the results list gets at most the capped
  // number of entries (30, and a line saying how many more) added, the
  // ones it keeps stay, and a keystroke that keeps the matches changes no
  // node. The time a keystroke takes, throttled, is make bench's
  // (tests/docs/search-bench.mjs), not a test's.
  {
    await page.goto(url, { waitUntil: "load" });
    await page.waitForFunction(() => document.getElementById("search").dataset.index === "built",
      null, { timeout: 10000 }).catch(() => {});
    const counts = await page.evaluate(async (queries) => {
      const input = document.getElementById("search-box"), list = document.getElementById("search-results");
      const out = [];
      for (const q of queries) {
        const seen = { added: 0, removed: 0 };
        const mo = new MutationObserver((rs) => { for (const r of rs) { seen.added += r.addedNodes.length; seen.removed += r.removedNodes.length; } });
        mo.observe(list, { childList: true });
        input.value = q;
        input.dispatchEvent(new Event("input"));
        await new Promise((r) => setTimeout(r, 0));
        mo.disconnect();
        out.push({ q, ...seen, shown: list.children.length });
      }
      return out;
    }, ["e", "ev", "eve", "even", "event", "g", "ge", "get", "getthreadgroupchildre", "getthreadgroupchildren", "x", ""]);
    const worst = Math.max(...counts.map((c) => c.added));
    report(worst <= 31 && counts[0].removed === 0,
      `a keystroke adds at most 31 result nodes (at most ${worst}) and the first removes none (${counts[0].removed})`,
      JSON.stringify(counts));
    const same = counts.find((c) => c.q === "getthreadgroupchildren");
    report(same && same.added + same.removed === 0 && same.shown > 0,
      `a keystroke that keeps the matches changes no node ("getthreadgroupchildre" + "n": ${same && same.added + same.removed})`,
      JSON.stringify(same));
    const narrow = counts.find((c) => c.q === "even");
    const prev = counts.find((c) => c.q === "eve");
    report(narrow && prev && narrow.added < prev.shown,
      `typing on keeps the entries that still match ("eve" -> "even": ${narrow && narrow.added} added of ${narrow && narrow.shown})`,
      JSON.stringify([prev, narrow]));
    // The next results, up to 60, follow when the list is scrolled to its
    // end, or walked down with the arrow keys.
    const rows = () => page.$$eval("#search-results li[data-kind]", (l) => l.length);
    await search.fill("");
    await search.pressSequentially("e", { delay: 5 });
    const before = await rows();
    await page.$eval("#search-results", (l) => { l.scrollTop = l.scrollHeight; });
    await page.waitForFunction(() => document.querySelectorAll("#search-results li[data-kind]").length >= 60,
      null, { timeout: 5000 }).catch(() => {});
    const after = await rows();
    report(before === 30 && after === 60,
      `"e": 30 results, 60 once the list is scrolled to its end (${before}, then ${after})`);
    await search.fill("");
    await search.pressSequentially("e", { delay: 5 });
    for (let k = 0; k < 45; k++) await search.press("ArrowDown");
    const at = await page.$eval("#search-results", (l) =>
      [...l.querySelectorAll("li[data-kind]")].findIndex((li) => li.classList.contains("active")));
    report(at === 45, `the arrow keys walk past the first 30 results (46th active after 45 presses: ${at + 1})`);
    await search.fill("");
  }

  // A deep link of the JDK's page: a parameter of a function.
  await page.goto(url + "#GetThreadState.thread_state_ptr", { waitUntil: "load" });
  const target = await page.evaluate(() => {
    const t = document.querySelector(":target");
    if (!t) return null;
    const r = t.getBoundingClientRect();
    return { id: t.id, top: r.top, bottom: r.bottom, height: innerHeight };
  });
  report(target && target.id === "GetThreadState.thread_state_ptr" && target.top >= 0 &&
         target.bottom <= target.height,
    "a deep link (#GetThreadState.thread_state_ptr) targets and scrolls to its element",
    JSON.stringify(target));
  // Permalinks: every section, error and constants table with an id has
  // one link to itself in its heading (term, caption), in the tab order;
  // Tab from the link before it reaches it, and it is shown (fully opaque)
  // while it has the focus, with no mouse over it.
  await page.goto(url, { waitUntil: "load" });
  const heads = "main section[id], main dl.errors dt[id], main table.constants[id]";
  const selfless = await page.evaluate((heads) => {
    const out = [];
    for (const e of document.querySelectorAll(heads)) {
      const head = e.matches("section") ? e.querySelector(":scope > h2, :scope > h3") : e.matches("table") ? e.querySelector("caption") : e;
      const links = head ? [...head.querySelectorAll("a.self")].filter((a) => a.getAttribute("href") === "#" + e.id) : [];
      if (links.length !== 1) out.push(`${e.id}: ${links.length}`);
    }
    return { out, n: document.querySelectorAll(heads).length };
  }, heads);
  report(selfless.out.length === 0 && selfless.n > 300,
    `each of the ${selfless.n} sections, errors and constants tables has one permalink in its heading`,
    selfless.out.slice(0, 20).join("\n"));
  const samples = await page.evaluate((heads) => {
    const first = (sel) => { const e = document.querySelector(sel); return e && e.id; };
    return [first("main section.function[id]"), first("main section.event[id]"), first("main section.callback[id]"),
            first("main section.type[id]"), first("main dl.errors dt[id]"), first("main table.constants[id]"),
            first("main section.category[id]"), "FunctionIndex"].filter(Boolean);
  }, heads);
  const tabbed = [];
  for (const id of samples) {
    // Focus the last link before the permalink, then Tab once.
    await page.evaluate((id) => {
      const self = [...document.querySelectorAll("a.self")].find((a) => a.getAttribute("href") === "#" + id);
      const links = [...document.querySelectorAll("main a[href]")];
      let i = links.indexOf(self) - 1;
      while (i >= 0 && !links[i].getClientRects().length) i--;
      (i >= 0 ? links[i] : document.getElementById("search-box")).focus();
    }, id);
    await page.keyboard.press("Tab");
    const got = await page.evaluate(() => {
      const a = document.activeElement, st = getComputedStyle(a), r = a.getBoundingClientRect();
      return { cls: a.className, href: a.getAttribute("href"), opacity: st.opacity, visibility: st.visibility,
               shown: r.width > 0 && r.height > 0 };
    });
    if (!(got.cls === "self" && got.href === "#" + id && got.opacity === "1" && got.visibility === "visible" && got.shown))
      tabbed.push(`${id}: ${JSON.stringify(got)}`);
  }
  report(samples.length >= 7 && tabbed.length === 0,
    `Tab reaches the permalink of ${samples.join(", ")}, its href the item's id, shown while focused`, tabbed.join("\n"));

  await page.goto(url + "#GetThreadState", { waitUntil: "load" });
  await page.screenshot({ path: join(shots, "jvmti-html.png") });
  report(true, `screenshot saved (${join(shots, "jvmti-html.png")})`);
  report(problems.length === 0, "no console error after searching and navigating", problems.join("\n"));

  // Dark theme follows the system.
  await page.emulateMedia({ colorScheme: "dark" });
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  report(bg !== "rgb(255, 255, 255)", `the dark theme follows the system (background ${bg})`);
  await page.screenshot({ path: join(shots, "jvmti-html-dark.png") });
  await page.emulateMedia({ colorScheme: "light" });

  // Print: no navigation.
  await page.emulateMedia({ media: "print" });
  report(!(await page.locator("#toc").isVisible()), "the print stylesheet hides the navigation");

  // No sideways scrolling of the page at desktop widths (wide tables
  // scroll in their own box); what sticks out is named when it fails.
  await page.emulateMedia({ media: "screen" });
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const m = await page.evaluate(overflow);
    // (An item is painted within its own box (content-visibility), so
    // what sticks out of one is named rather than measured.)
    report(m.scrollWidth <= m.width && m.culprits.length === 0, `at ${width} px the page does not scroll sideways (${m.scrollWidth} px wide)`,
      m.culprits.join("\n"));
    report(await page.locator("#toc").isVisible() && await page.locator("#toc a[href='#FunctionIndex']").isVisible(),
      `at ${width} px the table of contents is open beside the content`);
  }

  // A phone: 390 px, touch, the viewport meta honoured.
  const phone = await launch({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true,
                               deviceScaleFactor: 3 });
  contexts.push(phone);
  const p3 = await phone.newPage();
  await p3.goto(url, { waitUntil: "load" });
  const m = await p3.evaluate(overflow);
  report(m.scrollWidth <= m.width && m.culprits.length === 0, `at 390 px the page does not scroll sideways (${m.scrollWidth} px wide)`,
    m.culprits.join("\n"));
  const box = await p3.locator("#search-box").boundingBox();
  report(box && box.width >= 250, `at 390 px the search box is usable (${box && Math.round(box.width)} px wide)`);
  const top = await p3.evaluate(() => document.getElementById("top").getBoundingClientRect().top);
  report(top < 844 && !(await p3.locator("#toc a[href='#FunctionIndex']").isVisible()),
    `at 390 px the contents are folded and the content starts on the first screen (${Math.round(top)} px down)`);
  await p3.locator("#toc summary").first().tap();
  report(await p3.locator("#toc a[href='#FunctionIndex']").isVisible(), "at 390 px a tap opens the contents");
  await p3.locator("#toc a[href='#FunctionIndex']").tap();
  await p3.waitForFunction(() => location.hash === "#FunctionIndex");
  report(!(await p3.locator("#toc a[href='#FunctionIndex']").isVisible()),
    "at 390 px following a link in the contents folds them again");
  // Permalinks on a touch screen: shown without hovering, a finger's size,
  // and a tap follows them.
  const touch = [];
  for (const id of samples) {
    const link = p3.locator(`a.self[href="#${id}"]`);
    await link.scrollIntoViewIfNeeded();
    const b = await link.boundingBox();
    const opacity = await link.evaluate((a) => getComputedStyle(a).opacity);
    await link.tap();
    const hash = await p3.evaluate(() => location.hash);
    if (!(b && b.width >= 24 && b.height >= 24 && opacity === "1" && hash === "#" + id))
      touch.push(`${id}: ${JSON.stringify({ box: b, opacity, hash })}`);
  }
  report(samples.length >= 7 && touch.length === 0,
    `at 390 px the permalinks are shown without hovering, at least 24 px square, and a tap follows them (${samples.length})`,
    touch.join("\n"));
  await p3.goto(url, { waitUntil: "load" });
  await p3.screenshot({ path: join(shots, "jvmti-html-390.png") });

  // With JavaScript off: the content and the table of contents are there;
  // the search box (which needs the script) is not.
  const nojs = await launch({ javaScriptEnabled: false });
  contexts.push(nojs);
  const p2 = await nojs.newPage();
  await p2.goto(url + "#GetThreadState", { waitUntil: "load" });
  report(await p2.locator("#GetThreadState").isVisible() && await p2.locator("#toc").isVisible(),
    "with JavaScript off the content and contents are shown");
  report(!(await p2.locator("#search-box").isVisible()), "with JavaScript off the search box is hidden");
} catch (e) {
  report(false, "browser run", e.stack || e);
} finally {
  for (const c of contexts) await c.close().catch(() => {});
  for (const p of profiles) rmSync(p, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
