// The "Your data" panel: open or drop a CSV file, choose the two feature columns, the label column
// and its +1 class, or paste points (one per line: x, y, label). It hands the points to the lab.

import { h } from "./dom.js";
import { DataError, MAX_TEXT_CHARS, parseTable, describeColumns, defaultChoice, defaultPositive, toPoints } from "./data.js";

/**
 * @param {{onPoints: Function, dropTarget: HTMLElement, touch: boolean}} config
 * @returns {{node: HTMLElement, loadText: Function}}
 */
export function createDataPanel({ onPoints, dropTarget, touch }) {
  let table = null;
  let name = "";
  const message = h("div", { class: "plab-datamessage", "data-testid": "data-message", "aria-live": "polite" });
  const fileInput = h("input", { type: "file", accept: ".csv,.tsv,.txt,text/csv,text/plain", hidden: true, "data-testid": "data-file" });
  const openBtn = h("button", { type: "button", class: "plab-btn plab-btn-small", "data-testid": "data-open", onclick: () => fileInput.click() }, "Open CSV…");
  const select = (testid, label) => h("select", { "data-testid": testid, "aria-label": label });
  const xSelect = select("data-x", "x column");
  const ySelect = select("data-y", "y column");
  const labelSelect = select("data-label", "label column");
  const positiveSelect = select("data-positive", "+1 class");
  const columns = h("div", { class: "plab-grid plab-datacolumns", "data-testid": "data-columns", hidden: true },
    h("label", { class: "plab-field" }, h("span", {}, "x"), xSelect),
    h("label", { class: "plab-field" }, h("span", {}, "y"), ySelect),
    h("label", { class: "plab-field" }, h("span", {}, "label"), labelSelect),
    h("label", { class: "plab-field" }, h("span", {}, "+1 class"), positiveSelect));
  const pasteBox = h("textarea", { rows: "4", class: "plab-paste", "data-testid": "data-paste", "aria-label": "Points, one per line: x, y, label", placeholder: "1, 0, +1\n1, 1, -1\n0, 1, -1" });
  const pasteBtn = h("button", { type: "button", class: "plab-btn plab-btn-small", "data-testid": "data-use-paste", onclick: () => loadText(pasteBox.value, "the pasted points") }, "Use these points");
  const node = h("details", { class: "plab-panel plab-data", "data-ctl": "data", "data-testid": "data-panel" },
    h("summary", {}, "Your data: a CSV file or pasted points"),
    h("div", { class: "plab-datarow" }, openBtn, fileInput,
      h("span", { class: "plab-datahint" }, touch ? "a CSV with two feature columns and a label" : "or drop a CSV file on the lab")),
    columns, message,
    h("div", { class: "plab-datarow" }, pasteBox), h("div", { class: "plab-datarow" }, pasteBtn));

  function fail(text) {
    node.open = true;  // the message is seen even when the panel was closed (a dropped file)
    message.textContent = text;
    message.dataset.tone = "bad";
  }

  function options(target, values, chosen) {
    target.replaceChildren(...values.map(([value, text]) => h("option", { value: String(value) }, text)));
    target.value = String(chosen);
  }

  function apply(choice) {
    try {
      const { points, summary } = toPoints(table, choice);
      message.textContent = `${name}: ${summary}`;
      message.dataset.tone = "";
      onPoints(points);
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      fail(error.message);
    }
  }

  function showChoice(choice) {
    const described = describeColumns(table);
    const all = described.map((c) => [c.index, c.name]);
    options(xSelect, all, choice.x);
    options(ySelect, all, choice.y);
    options(labelSelect, all, choice.label);
    options(positiveSelect, described[choice.label].classes.map((c) => [c, c]), choice.positive);
    columns.hidden = false;
  }

  function chosen() {
    return { x: Number(xSelect.value), y: Number(ySelect.value), label: Number(labelSelect.value), positive: positiveSelect.value };
  }

  for (const target of [xSelect, ySelect, positiveSelect]) target.addEventListener("change", () => apply(chosen()));
  labelSelect.addEventListener("change", () => {
    // a new label column: its classes, and the +1 class the page would take
    const label = Number(labelSelect.value);
    const choice = { ...chosen(), positive: defaultPositive(describeColumns(table)[label].classes) };
    showChoice(choice);
    apply(choice);
  });

  /** Read CSV text (a file's or pasted) called `source`, choose the columns, load the points. */
  function loadText(text, source) {
    name = source;
    try {
      table = parseTable(text);
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      table = null;
      columns.hidden = true;
      fail(`${source}: ${error.message}`);
      return;
    }
    node.open = true;
    const choice = defaultChoice(table);
    showChoice(choice);
    columns.hidden = table.header.length <= 3 && describeColumns(table)[choice.label].classes.length <= 2;
    apply(choice);
  }

  function readFile(file) {
    if (!file) return;
    if (file.size > 4 * MAX_TEXT_CHARS) {  // refused before it is read: at most 4 bytes a character
      fail(`${file.name}: expected at most ${(4 * MAX_TEXT_CHARS).toLocaleString("en-US")} bytes, got ${file.size.toLocaleString("en-US")}; keep at most 10,000 rows of two features and a label.`);
      return;
    }
    file.text().then((text) => loadText(text, file.name), (error) => fail(`${file.name}: could not be read (${error.message}).`));
  }

  fileInput.addEventListener("change", () => { readFile(fileInput.files[0]); fileInput.value = ""; });
  dropTarget.addEventListener("dragover", (event) => {
    if (node.hidden || !event.dataTransfer || ![...event.dataTransfer.types].includes("Files")) return;
    event.preventDefault();
    dropTarget.classList.add("plab-dropping");
  });
  dropTarget.addEventListener("dragleave", () => dropTarget.classList.remove("plab-dropping"));
  dropTarget.addEventListener("drop", (event) => {
    dropTarget.classList.remove("plab-dropping");
    if (node.hidden || !event.dataTransfer || !event.dataTransfer.files.length) return;
    event.preventDefault();
    readFile(event.dataTransfer.files[0]);
  });

  return { node, loadText };
}
