// The search box of spec/jvmti.xml's page in headless Chromium, against
// results written by hand from the spec: what it finds (events by their
// constant, the agent's entry points, JNI's GetEnv, version constants, what
// a release added), a typo of one edit, the kind filters, a one-line
// summary per result, and Enter landing the result's heading below the bar.
// usage: node search.mjs PAGE.html   (the page of spec/jvmti.xml)
// Prints "ok - ..." / "not ok - ..." lines for tests/run-all.
import { openChromium, settle, landed } from "./chromium.mjs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [page_path] = process.argv.slice(2);
const url = pathToFileURL(resolve(page_path)).href;
let failed = 0;
function report(ok, what, detail) {
  console.log(`${ok ? "ok" : "not ok"} - docs: search: ${what}`);
  if (!ok) {
    failed++;
    if (detail) console.log(String(detail).split("\n").map((l) => "    " + l).join("\n"));
  }
}

// [query, the first result's target, targets among the results]
const first = [
  ["JVMTI_EVENT_VM_INIT", "VMInit"],
  ["jvmti_event_class_file_load_hook", "ClassFileLoadHook"],
  ["Agent_OnLoad", "onload"],
  ["Agent_OnAttach", "onattach"],
  ["Agent_OnUnload", "onunload"],
  ["Agent_OnLoad_L", "entryPoint"],
  ["GetEnv", "environments"],
  ["JVMTI_VERSION_11", "JVMTI_VERSION_11"],
  ["JVMTI_VERSION", "JVMTI_VERSION"],
  // One edit: a letter dropped, two swapped, one changed, one added.
  ["GetStakTrace", "GetStackTrace"],
  ["ClasFileLoadHook", "ClassFileLoadHook"],
  ["WRONG_PAHSE", "JVMTI_ERROR_WRONG_PHASE"],
  ["GetThreadStale", "GetThreadState"],
  ["can_tagg_objects", "jvmtiCapabilities.can_tag_objects"],
  // Filters.
  ["event:thread", "ThreadStart"],
  ["cap:tag", "jvmtiCapabilities.can_tag_objects"],
  ["err:wrong phase", "JVMTI_ERROR_WRONG_PHASE"],
  ["type:frameinfo", "jvmtiFrameInfo"],
];
// [query, the kinds every result must have, targets that must all be there,
//  or (exact) the whole list of targets]
const sets = [
  ["since 11", null, null, ["SetHeapSamplingInterval", "JVMTI_VERSION_11",
    "jvmtiCapabilities.can_generate_sampled_object_alloc_events", "SampledObjectAlloc"]],
  ["since:11 heap", null, null, ["SetHeapSamplingInterval"]],
  ["event: since 11", ["event"], null, ["SampledObjectAlloc"]],
  ["event:thread", ["event"], ["ThreadStart", "ThreadEnd", "VirtualThreadStart", "VirtualThreadEnd"]],
  ["cap:tag", ["capability"], ["jvmtiCapabilities.can_tag_objects"]],
  ["err:thread", ["error"], ["JVMTI_ERROR_INVALID_THREAD", "JVMTI_ERROR_THREAD_NOT_SUSPENDED",
    "JVMTI_ERROR_THREAD_NOT_ALIVE", "JVMTI_ERROR_INVALID_THREAD_GROUP"]],
  ["type:frame", ["type", "callback", "constants"], ["jvmtiFrameInfo"]],
  ["event:", ["event"], ["VMInit", "VMDeath", "Breakpoint", "ClassFileLoadHook"]],
  ["GetStakTrace", null, ["GetStackTrace"]],
  ["xyzzyq", null, null, []],
];

let browser;
try {
  browser = await openChromium({ viewport: { width: 1280, height: 900 } });
  const page = await browser.context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => document.getElementById("search").dataset.index === "built", null, { timeout: 10000 });
  const box = page.locator("#search-box");
  const results = () => page.$$eval("#search-results li[data-kind]", (lis) => lis.map((li) => ({
    href: li.querySelector("a").getAttribute("href").slice(1), kind: li.dataset.kind,
    sum: (li.querySelector(".sum") || { textContent: "" }).textContent.replace(/\s+/g, " ").trim(),
    sumLines: (() => { const s = li.querySelector(".sum"); if (!s) return 0;
      return Math.round(s.getBoundingClientRect().height / parseFloat(getComputedStyle(s).lineHeight)); })(),
  })));
  const ask = async (q) => { await box.fill(""); await box.pressSequentially(q, { delay: 2 }); return results(); };

  for (const [q, want] of first) {
    const r = await ask(q);
    report(r.length > 0 && r[0].href === want, `"${q}" finds #${want} first`,
      r.slice(0, 5).map((x) => x.href).join("\n") || "(nothing)");
  }
  for (const [q, kinds, some, exact] of sets) {
    const r = await ask(q), got = r.map((x) => x.href);
    const wrong = kinds ? r.filter((x) => !kinds.includes(x.kind)).map((x) => `${x.href} (${x.kind})`) : [];
    const lacking = (some || []).filter((id) => !got.includes(id));
    const same = !exact || (got.length === exact.length && exact.every((id) => got.includes(id)));
    report(wrong.length === 0 && lacking.length === 0 && same,
      `"${q}": ${exact ? `exactly ${exact.length} results` : `${r.length} results`}` +
      `${kinds ? `, all of kind ${kinds.join("/")}` : ""}${some ? `, among them ${some.join(", ")}` : ""}`,
      [...wrong.map((w) => "wrong kind: " + w), ...lacking.map((l) => "missing: " + l),
       same ? "" : "got: " + got.join(" ")].filter(Boolean).join("\n"));
  }
  // A one-line summary per result: the item's first sentence (an event's
  // constant before it), as the spec words it.
  const sums = [
    ["GetStackTrace", "GetStackTrace", "Copies descriptions of frames of thread into a buffer supplied by the agent"],
    ["VMInit", "VMInit", "JVMTI_EVENT_VM_INIT · Marks the end of VM initialization and the beginning of the live phase"],
    ["WRONG_PHASE", "JVMTI_ERROR_WRONG_PHASE", "The function may not be used in the current phase"],
  ];
  for (const [q, id, want] of sums) {
    const r = (await ask(q)).find((x) => x.href === id);
    report(r && r.sum === want && r.sumLines === 1, `"${q}": #${id}'s summary is its first sentence, on one line`,
      JSON.stringify(r));
  }
  const many = await ask("thread");
  const long = many.filter((x) => x.sumLines > 1);
  report(many.length >= 30 && long.length === 0, `"thread": each of the ${many.length} shown results' summaries fits one line`,
    long.slice(0, 5).map((x) => x.href).join("\n"));
  // Enter follows the first result, its heading landing below the bar.
  for (const [q, id] of [["GetStakTrace", "GetStackTrace"], ["Agent_OnLoad", "onload"],
                         ["JVMTI_EVENT_BREAKPOINT", "Breakpoint"], ["JVMTI_VERSION_21", "JVMTI_VERSION_21"]]) {
    await ask(q);
    await box.press("Enter");
    await page.waitForFunction((id) => location.hash === "#" + id, id, { timeout: 5000 }).catch(() => {});
    const r = await page.evaluate(settle);
    report(r.id === id && landed(r), `Enter on "${q}" lands #${id} within 8 px of the top`, JSON.stringify(r));
  }
  report(problems.length === 0, "no script error", problems.join("\n"));
} catch (e) {
  report(false, "browser run", e.stack || e);
} finally {
  if (browser) await browser.close();
}
process.exit(failed ? 1 : 0);
