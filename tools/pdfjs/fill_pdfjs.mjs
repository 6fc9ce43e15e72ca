// Fill or read a PDF form with pdf.js, the way Firefox does (tests/test_acroform.py uses it).
//
//   node fill_pdfjs.mjs fill IN.pdf OUT.pdf VALUES.json   VALUES: {"field": "text or option"}
//   node fill_pdfjs.mjs read IN.pdf                        prints what pdf.js sees, as JSON
//
// Filling follows Firefox's annotation layer: each widget's value goes into
// doc.annotationStorage under the annotation's id ({value: text} for a text field; for a radio
// group {value: false} on every option, then {value: true} on the chosen one), and the file is
// written by doc.saveDocument(), Firefox's "Save" of a filled form.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const standardFontDataUrl = join(here, "node_modules", "pdfjs-dist", "standard_fonts") + "/";

async function open(path) {
  const data = new Uint8Array(readFileSync(path));
  return getDocument({ data, standardFontDataUrl, verbosity: 0 }).promise;
}

async function widgets(doc) {
  const found = [];
  for (let number = 1; number <= doc.numPages; number++) {
    const page = await doc.getPage(number);
    for (const annotation of await page.getAnnotations()) {
      if (annotation.subtype === "Widget" && annotation.fieldName) found.push(annotation);
    }
  }
  return found;
}

async function fill(input, output, valuesPath) {
  const values = JSON.parse(readFileSync(valuesPath, "utf8"));
  const doc = await open(input);
  const storage = doc.annotationStorage;
  const all = await widgets(doc);
  const unknown = Object.keys(values).filter((name) => !all.some((w) => w.fieldName === name));
  if (unknown.length) throw new Error(`no such field: ${unknown.join(", ")}`);
  for (const [name, value] of Object.entries(values)) {
    const group = all.filter((w) => w.fieldName === name);
    if (group[0].radioButton) {
      const chosen = group.filter((w) => w.buttonValue === value);
      if (chosen.length !== 1) throw new Error(`${name} has no single option ${value}`);
      for (const widget of group) storage.setValue(widget.id, { value: false });
      storage.setValue(chosen[0].id, { value: true });
    } else {
      for (const widget of group) storage.setValue(widget.id, { value });
    }
  }
  const saved = await doc.saveDocument();
  writeFileSync(output, saved);
  await doc.destroy();
}

async function read(input) {
  const doc = await open(input);
  const all = await widgets(doc);
  const fieldObjects = (await doc.getFieldObjects()) || {};
  const { info } = await doc.getMetadata();
  const values = {};
  const options = {};
  const checked = {};
  for (const widget of all) {
    const name = widget.fieldName;
    if (widget.radioButton) {
      (options[name] ||= []).push(widget.buttonValue);
      checked[name] ||= [];
      if (widget.fieldValue === widget.buttonValue) checked[name].push(widget.buttonValue);
      values[name] = checked[name].length === 1 ? checked[name][0] : null;
    } else {
      values[name] = widget.fieldValue === "" ? null : (widget.fieldValue ?? null);
    }
  }
  const result = {
    fieldNames: Object.keys(fieldObjects).sort(),
    widgets: all.length,
    values,
    options,
    checked,
    identity: info.Custom || {},
  };
  process.stdout.write(JSON.stringify(result) + "\n");
  await doc.destroy();
}

const [command, ...args] = process.argv.slice(2);
if (command === "fill" && args.length === 3) await fill(...args);
else if (command === "read" && args.length === 1) await read(...args);
else {
  process.stderr.write("usage: fill_pdfjs.mjs fill IN OUT VALUES.json | read IN\n");
  process.exit(2);
}
