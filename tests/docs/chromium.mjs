// The headless chromium the docs' browser checks (jumps, phone, print) run
// in: a fresh profile each, removed again by close().
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
