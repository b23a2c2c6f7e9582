import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { sql } from "drizzle-orm";
import yazl from "yazl";
import type { QtiPackageImport } from "../src/shared/contracts/content";
import {
  figure,
  generateOnce,
  openBenchDatabase,
  printReport,
  projectRoot,
  readBenchArgs,
  runOnBothDatabases,
  signIn,
  startServer,
  stopChild,
} from "./bench-lib";
import { BENCH_PASSWORD, generateSchool } from "./gen-data";

/**
 * The QTI bank's package import: an IMS content package of 1,000 items (ten kinds of interaction,
 * every tenth item with one of a few shared stimuli, some with pictures), imported through
 * POST /api/qti/items as an administrator of the running server, into an empty bank and then again
 * (every item replaced). Target: under 20 s each, on PGlite and on PostgreSQL.
 *   tsx scripts/bench-content.ts [--items 1000] [--only pglite|postgres]
 */

const { args, whole } = readBenchArgs({ items: { type: "string", default: "1000" } });
const itemCount = whole("items", 1);
const TARGET_SECONDS = 20;
const STIMULI = 8;
const PICTURES = 5;
const today = new Date().toISOString().slice(0, 10);
const log = (message: string) => process.stderr.write(`[bench-content] ${message}\n`);
const workDir = path.join(projectRoot, ".tmp", "bench-content");
const packageFile = path.join(workDir, `package-${itemCount}.zip`);
const NS = 'xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"';
const MATCH_CORRECT = "https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml";
const MAP_RESPONSE = "https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response.xml";

/** A picture: a PNG signature and enough bytes to weigh like a small diagram. */
function picture(n: number): Buffer {
  const body = Buffer.alloc(20_000);
  for (let at = 0; at < body.length; at++) body[at] = (at * 31 + n * 17) % 251;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), body]);
}

const declaration = (cardinality: string, baseType: string, values: string[], extra = "") =>
  `<qti-response-declaration identifier="RESPONSE" cardinality="${cardinality}" base-type="${baseType}">
    <qti-correct-response>${values.map((value) => `<qti-value>${value}</qti-value>`).join("")}</qti-correct-response>${extra}
  </qti-response-declaration>`;

const choices = (element: string, ids: string[]) =>
  ids.map((id) => `<${element} identifier="${id}">Option ${id}</${element}>`).join("\n      ");

/** Item n of the package: one of ten kinds of interaction, some with a stimulus or a picture. */
function itemXml(n: number): string {
  const kind = n % 10;
  const stimulus =
    n % 10 === 0
      ? `<qti-assessment-stimulus-ref identifier="bench-stimulus-${n % STIMULI}" href="../stimuli/stimulus-${n % STIMULI}.xml"/>`
      : "";
  const image =
    n % 7 === 0
      ? `<p><img src="../images/picture-${n % PICTURES}.png" alt="Diagram ${n % PICTURES}"/></p>`
      : "";
  let response: string;
  let body: string;
  let template = MATCH_CORRECT;
  switch (kind) {
    case 0:
    case 1:
      response = declaration("single", "identifier", ["B"]);
      body = `<qti-choice-interaction response-identifier="RESPONSE" max-choices="1"><qti-prompt>Question ${n}: which is right?</qti-prompt>
      ${choices("qti-simple-choice", ["A", "B", "C", "D"])}</qti-choice-interaction>`;
      break;
    case 2:
      response = declaration(
        "multiple",
        "identifier",
        ["A", "C"],
        `<qti-mapping lower-bound="0" default-value="0"><qti-map-entry map-key="A" mapped-value="1"/><qti-map-entry map-key="C" mapped-value="1"/><qti-map-entry map-key="D" mapped-value="-1"/></qti-mapping>`,
      );
      template = MAP_RESPONSE;
      body = `<qti-choice-interaction response-identifier="RESPONSE" max-choices="0"><qti-prompt>Question ${n}: choose all that apply.</qti-prompt>
      ${choices("qti-simple-choice", ["A", "B", "C", "D"])}</qti-choice-interaction>`;
      break;
    case 3:
      response = declaration("single", "string", [`word${n}`]);
      body = `<p>Question ${n}: type the word <qti-text-entry-interaction response-identifier="RESPONSE" expected-length="10"/>.</p>`;
      break;
    case 4:
      response = declaration("ordered", "identifier", ["A", "B", "C"]);
      body = `<qti-order-interaction response-identifier="RESPONSE"><qti-prompt>Question ${n}: put these in order.</qti-prompt>
      ${choices("qti-simple-choice", ["C", "A", "B"])}</qti-order-interaction>`;
      break;
    case 5:
      response = declaration("multiple", "directedPair", ["A X", "B Y"]);
      body = `<qti-match-interaction response-identifier="RESPONSE" max-associations="2"><qti-prompt>Question ${n}: match them.</qti-prompt>
      <qti-simple-match-set>${choices("qti-simple-associable-choice", ["A", "B"])}</qti-simple-match-set>
      <qti-simple-match-set>${choices("qti-simple-associable-choice", ["X", "Y"])}</qti-simple-match-set></qti-match-interaction>`;
      break;
    case 6:
      response = declaration("multiple", "directedPair", ["W1 G1", "W2 G2"]);
      body = `<qti-gap-match-interaction response-identifier="RESPONSE"><qti-prompt>Question ${n}: fill the gaps.</qti-prompt>
      <qti-gap-text identifier="W1" match-max="1">first</qti-gap-text><qti-gap-text identifier="W2" match-max="1">second</qti-gap-text>
      <p>The <qti-gap identifier="G1"/> and the <qti-gap identifier="G2"/>.</p></qti-gap-match-interaction>`;
      break;
    case 7:
      response = declaration("single", "identifier", ["Y"]);
      body = `<p>Question ${n}: the answer is <qti-inline-choice-interaction response-identifier="RESPONSE">
      ${choices("qti-inline-choice", ["X", "Y", "Z"])}</qti-inline-choice-interaction>.</p>`;
      break;
    case 8:
      response = declaration("single", "integer", [String(n % 13)]);
      body = `<qti-slider-interaction response-identifier="RESPONSE" lower-bound="0" upper-bound="12" step="1"><qti-prompt>Question ${n}: how many?</qti-prompt></qti-slider-interaction>`;
      break;
    default:
      response = `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>`;
      body = `<qti-extended-text-interaction response-identifier="RESPONSE"><qti-prompt>Question ${n}: explain your answer.</qti-prompt></qti-extended-text-interaction>`;
  }
  const processing = kind === 9 ? "" : `<qti-response-processing template="${template}"/>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${NS} identifier="bench-item-${n}" title="Bench question ${n}" adaptive="false" time-dependent="false">
  ${response}
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  ${stimulus}
  <qti-item-body>${image}
    ${body}
  </qti-item-body>
  ${processing}
</qti-assessment-item>`;
}

function stimulusXml(n: number): string {
  const paragraphs = Array.from(
    { length: 12 },
    (_, at) =>
      `<p>Paragraph ${at + 1} of passage ${n}: a river runs from the hills to the sea, past farms and towns.</p>`,
  ).join("\n    ");
  return `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-stimulus ${NS} identifier="bench-stimulus-${n}" title="Passage ${n}">
  <qti-stylesheet href="../styles/passage.css" type="text/css"/>
  <qti-stimulus-body>
    <img src="../images/picture-${n % PICTURES}.png" alt="Picture for passage ${n}"/>
    ${paragraphs}
  </qti-stimulus-body>
</qti-assessment-stimulus>`;
}

/** Writes the package once (kept for the next run of the same size). */
async function writePackage(): Promise<number> {
  mkdirSync(workDir, { recursive: true });
  if (!existsSync(packageFile)) {
    const zip = new yazl.ZipFile();
    const resources: string[] = [];
    for (let n = 0; n < itemCount; n++) {
      zip.addBuffer(Buffer.from(itemXml(n)), `items/item-${n}.xml`);
      resources.push(
        `<resource identifier="item-${n}" type="imsqti_item_xmlv3p0" href="items/item-${n}.xml"><file href="items/item-${n}.xml"/></resource>`,
      );
    }
    for (let n = 0; n < STIMULI; n++) {
      zip.addBuffer(Buffer.from(stimulusXml(n)), `stimuli/stimulus-${n}.xml`);
      resources.push(
        `<resource identifier="stimulus-${n}" type="imsqti_stimulus_xmlv3p0" href="stimuli/stimulus-${n}.xml"/>`,
      );
    }
    for (let n = 0; n < PICTURES; n++) zip.addBuffer(picture(n), `images/picture-${n}.png`);
    zip.addBuffer(Buffer.from(".qti-shared-stimulus p { line-height: 1.5; }\n"), "styles/passage.css");
    zip.addBuffer(
      Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="bench-package">
  <resources>
    ${resources.join("\n    ")}
  </resources>
</manifest>`),
      "imsmanifest.xml",
    );
    zip.end();
    writeFileSync(packageFile, await buffer(zip.outputStream));
  }
  return readFileSync(packageFile).length;
}

interface ImportRun {
  seconds: number;
  result: QtiPackageImport;
}

interface SuiteResult {
  db: "pglite" | "postgres";
  packageBytes: number;
  first: ImportRun;
  again: ImportRun;
}

async function importPackage(baseUrl: string, cookie: string): Promise<ImportRun> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(readFileSync(packageFile))]), path.basename(packageFile));
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/qti/items`, {
    method: "POST",
    body: form,
    headers: { cookie },
    signal: AbortSignal.timeout(300_000),
  });
  const body = await response.text();
  const seconds = (performance.now() - started) / 1000;
  if (response.status !== 200)
    throw new Error(`the import answered ${response.status}: ${body.slice(0, 2000)}`);
  const result = JSON.parse(body) as QtiPackageImport;
  if (result.items !== itemCount || result.stimuli !== STIMULI)
    throw new Error(`the import took ${result.items} items and ${result.stimuli} stimuli`);
  return { seconds, result };
}

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  log(`${db}: a small school for the administrator's account (reused when already there)…`);
  await generateOnce(env, dataDir, ".generated-content", async (database) => {
    await generateSchool(database, { students: 20, days: 1, today, studentsPerSchool: 20 });
  });
  const packageBytes = await writePackage();
  // Stored files go under the run's own folder, never the project's data folder.
  const filesDir = dataDir ?? path.join(workDir, "postgres-data");
  // An empty bank: the first import creates every document and stores every picture.
  rmSync(path.join(filesDir, "files", "qti"), { recursive: true, force: true });
  const database = await openBenchDatabase(env, dataDir);
  try {
    await database.migrate();
    await database.db.execute(sql`delete from qti_documents`);
    await database.db.execute(sql`delete from qti_assets`);
  } finally {
    await database.close();
  }
  const server = await startServer({
    projectRoot,
    env: { ...env, SEED_DEMO: "false", DATA_DIR: filesDir },
    timeoutMs: 180_000,
  });
  try {
    const cookie = await signIn(server.baseUrl, "bench-admin@dash.bench", BENCH_PASSWORD);
    log(
      `${db}: importing ${itemCount} items (${figure(packageBytes / 1024, 0)} KB package) into an empty bank…`,
    );
    const first = await importPackage(server.baseUrl, cookie);
    log(`${db}: ${figure(first.seconds)} s; importing it again (every document replaced)…`);
    const again = await importPackage(server.baseUrl, cookie);
    log(`${db}: ${figure(again.seconds)} s`);
    return { db, packageBytes, first, again };
  } finally {
    await stopChild(server.child);
  }
}

function report(results: SuiteResult[]) {
  const row = (suite: SuiteResult, what: string, run: ImportRun) =>
    `| ${suite.db} | ${what}: ${figure(run.seconds)} s, ${figure(itemCount / run.seconds, 0)} items/s | – | ${figure(run.seconds * 1000, 0)} | – | – | 0 | < ${TARGET_SECONDS} s | ${run.seconds < TARGET_SECONDS ? "PASS" : "FAIL"} |`;
  printReport(
    "QTI bank benchmark",
    `Dataset: a content package of ${itemCount} items (ten kinds of interaction), ${STIMULI} shared stimuli, ${PICTURES} pictures and a stylesheet (${figure((results[0]?.packageBytes ?? 0) / 1024, 0)} KB), written by the script and posted to POST /api/qti/items of the running server. Times in the p50 column.`,
    results.map((suite) => ({
      db: suite.db,
      measurements: [],
      otherRows: [
        row(
          suite,
          `package import into an empty bank, ${suite.first.result.assets} media files stored`,
          suite.first,
        ),
        row(suite, "the same package again, every document replaced", suite.again),
      ],
    })),
  );
}

runOnBothDatabases({
  name: "bench-content",
  args,
  childArgs: [`--items=${itemCount}`],
  runSuite,
  report,
});
