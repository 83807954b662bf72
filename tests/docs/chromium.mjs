// The headless chromium the docs' browser checks (jumps, search, phone,
// print) run in: a fresh profile each, removed again by close(); and where a
// jump lands (settle, landed), which jumps and search check.
import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A persistent context on a new profile; extra is merged into the launch
// options (a viewport, for example). Returns { context, close }.
export async function openChromium(extra = {}) {
  const profile = mkdtempSync(join(tmpdir(), "jvmtigen-chromium-"));
  const remove = () => rmSync(profile, { recursive: true, force: true });
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      ...extra,
    });
  } catch (e) {
    remove();
    throw e;
  }
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      remove();
    },
  };
}

// In the page: where the target of the hash is once it has stopped
// moving (the same top for 5 frames running, or 3 s), against where a
// target belongs: the scroll padding, or lower when the page cannot scroll
// that far.
export function settle() {
  return new Promise((done) => {
    const id = decodeURIComponent(location.hash.slice(1));
    const el = document.getElementById(id);
    if (!el) return done({ id, missing: true });
    const want = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
    let last = NaN, same = 0;
    const start = performance.now();
    (function frame() {
      const top = el.getBoundingClientRect().top;
      same = Math.abs(top - last) < 0.5 ? same + 1 : 0;
      last = top;
      if (same < 5 && performance.now() - start < 3000) return requestAnimationFrame(frame);
      const end = document.documentElement.scrollHeight - innerHeight;
      const bottom = scrollY >= end - 1;
      done({ id, top: Math.round(top), want, off: Math.round(top - want), bottom });
    })();
  });
}
export const landed = (r) => r && !r.missing && (Math.abs(r.off) <= 8 || (r.bottom && r.off > 0));
