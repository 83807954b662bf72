// Validates SARIF files against the SARIF 2.1.0 JSON schema (the OASIS
// schema as @microsoft/jest-sarif ships it, draft-04) with Ajv. Prints one
// line per file, `valid FILE` or `invalid FILE: ...` with each error, and
// exits 1 if any is invalid.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";

const require = createRequire(import.meta.url);
const schemaPath = require.resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
// The schema's patterns are written for JavaScript's non-Unicode
// expressions (one has a lone `]`); strict off: it has draft-04 keywords
// Ajv's strict mode does not know.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);
let bad = 0;
for (const file of process.argv.slice(2)) {
  const data = JSON.parse(readFileSync(file, "utf8"));
  if (validate(data)) {
    console.log(`valid ${file}`);
  } else {
    bad++;
    const errs = validate.errors.map((e) => `${e.instancePath || "/"} ${e.message}`);
    console.log(`invalid ${file}: ${errs.join("; ")}`);
  }
}
process.exit(bad ? 1 : 0);
