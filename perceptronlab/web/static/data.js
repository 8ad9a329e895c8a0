// A user's own data: a CSV file (or pasted lines) read into a table, two feature columns and a
// label column chosen, the rows turned into the lab's points. Every refusal is one line that says
// what, what was expected, what came, and how to fix it.
// Pure functions: unit-tested with node --test (tests/js/data.test.mjs).

/** The most the page reads: the lab server's own limits (MAX_POINTS, MAX_BODY_BYTES of web/api.py). */
export const MAX_ROWS = 10000;
export const MAX_TEXT_CHARS = 2000000;
/** A label column holds classes, not measurements: at most this many distinct values. */
export const MAX_CLASSES = 50;

/** A message for the person who loaded the data. */
export class DataError extends Error {}

function isNumber(cell) {
  return cell !== "" && Number.isFinite(Number(cell));
}

/** The separator of these lines: a tab, a semicolon, a comma, or runs of spaces. */
export function detectSeparator(lines) {
  const sample = lines.slice(0, 20);
  for (const candidate of ["\t", ";", ","]) {
    if (sample.length && sample.every((line) => line.includes(candidate))) return candidate;
  }
  return /\S\s+\S/.test(sample[0] || "") ? " " : ",";
}

function splitLine(line, separator) {
  if (separator === " ") return line.trim().split(/\s+/);
  const cells = [];
  let cell = "", quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cell += '"'; i++; }
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell.trim() === "") { quoted = true; cell = ""; }
    else if (ch === separator) { cells.push(cell.trim()); cell = ""; }
    else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/**
 * Read CSV text (or pasted lines "x, y, label") into {header, rows}: header is the first line's
 * names when it has them (else x1, x2, …, the columns' numbers), rows the cells as text.
 */
export function parseTable(text) {
  if (text.length > MAX_TEXT_CHARS) {
    throw new DataError(`data: expected at most ${MAX_TEXT_CHARS.toLocaleString("en-US")} characters, got ${text.length.toLocaleString("en-US")}; keep at most ${MAX_ROWS.toLocaleString("en-US")} rows of two features and a label.`);
  }
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/).filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"));
  if (!lines.length) throw new DataError("data: expected lines of numbers such as \"1, 0, +1\", got nothing; open a CSV file or paste points, one per line.");
  const separator = detectSeparator(lines);
  let rows = lines.map((line) => splitLine(line, separator));
  const width = rows[0].length;
  const first = rows[0];
  const rest = rows.slice(1);
  const numericBelow = (j) => rest.length > 0 && rest.every((row) => isNumber(row[j]));
  const hasHeader = first.every((cell) => !isNumber(cell)) || first.some((cell, j) => !isNumber(cell) && numericBelow(j));
  const header = hasHeader ? first.map((name, j) => name || `column ${j + 1}`) : first.map((_, j) => `column ${j + 1}`);
  if (hasHeader) rows = rest;
  if (rows.length > MAX_ROWS) {
    throw new DataError(`data: expected at most ${MAX_ROWS.toLocaleString("en-US")} rows, got ${rows.length.toLocaleString("en-US")}; keep a sample of the rows.`);
  }
  const lineOffset = hasHeader ? 2 : 1;
  rows.forEach((row, i) => {
    if (row.length !== width) {
      throw new DataError(`data: expected ${width} cells in every row (as in the first), got ${row.length} in row ${i + lineOffset}; give every row the same columns.`);
    }
  });
  if (width < 3) {
    throw new DataError(`data: expected at least 3 columns (two features and a label), got ${width}; write each point as x, y, label.`);
  }
  return { header, rows, hasHeader };
}

/** Each column's name, whether all its cells are numbers, and its distinct values (up to MAX_CLASSES + 1). */
export function describeColumns(table) {
  return table.header.map((name, j) => {
    const distinct = new Set();
    let numeric = table.rows.length > 0;
    for (const row of table.rows) {
      if (numeric && !isNumber(row[j])) numeric = false;
      if (distinct.size <= MAX_CLASSES) distinct.add(row[j]);
    }
    return { name, index: j, numeric, classes: [...distinct] };
  });
}

const LABEL_NAMES = /^(label|labels|y|target|class|classes|species|outcome)$/i;

/** The class of the label column that becomes +1 (the rest −1) when the user has not chosen. */
export function defaultPositive(classes) {
  const numbers = classes.every(isNumber) ? classes.map(Number) : null;
  if (numbers && numbers.includes(1) && numbers.every((v) => v === 1 || v === 0 || v === -1)) {
    return classes[numbers.indexOf(1)];
  }
  const sorted = [...classes].sort((a, b) => (numbers ? Number(a) - Number(b) : a.localeCompare(b)));
  return sorted.length === 2 ? sorted[1] : sorted[0];
}

/** The columns the page takes when the user has not chosen: {x, y, label, positive} (indices, a class). */
export function defaultChoice(table) {
  const columns = describeColumns(table);
  const small = (c) => c.classes.length >= 1 && c.classes.length <= MAX_CLASSES;
  const named = columns.filter((c) => LABEL_NAMES.test(c.name) && small(c));
  const texts = columns.filter((c) => !c.numeric && small(c));
  const twoClasses = columns.filter((c) => c.classes.length === 2);
  const label = named[named.length - 1] || texts[texts.length - 1] || twoClasses[twoClasses.length - 1] || columns[columns.length - 1];
  const features = columns.filter((c) => c !== label && c.numeric);
  const x = features[0] ? features[0].index : (label.index === 0 ? 1 : 0);
  const y = features[1] ? features[1].index : columns.find((c) => c.index !== x && c.index !== label.index).index;
  return { x, y, label: label.index, positive: defaultPositive(label.classes) };
}

/**
 * The lab's points from the table: x and y from the chosen columns, +1 for the rows whose label
 * is `positive`, −1 for the others. Returns {points, summary}.
 */
export function toPoints(table, choice) {
  const { header, rows } = table;
  const { x, y, label, positive } = choice;
  if (new Set([x, y, label]).size !== 3) {
    throw new DataError(`columns: expected three different columns for x, y and the label, got ${[x, y, label].map((j) => `'${header[j]}'`).join(", ")}; choose another column.`);
  }
  const classes = describeColumns(table)[label].classes;
  if (classes.length > MAX_CLASSES) {
    throw new DataError(`label column '${header[label]}': expected at most ${MAX_CLASSES} classes, got more; choose the column that holds the classes.`);
  }
  if (!classes.includes(positive)) {
    throw new DataError(`label column '${header[label]}': expected '${positive}' among its classes, got ${classes.slice(0, 5).join(", ")}; choose the +1 class again.`);
  }
  const lineOffset = table.hasHeader ? 2 : 1;
  const points = rows.map((row, i) => {
    for (const j of [x, y]) {
      if (!isNumber(row[j])) {
        throw new DataError(`column '${header[j]}': expected a number in row ${i + lineOffset}, got '${String(row[j]).slice(0, 20)}'; choose a column of numbers or fix that row.`);
      }
    }
    return { x: Number(row[x]), y: Number(row[y]), label: row[label] === positive ? 1 : -1 };
  });
  const plus = points.filter((p) => p.label > 0).length;
  const rest = classes.length === 2 ? `'${classes.find((c) => c !== positive)}'` : "the other classes";
  const summary = `${rows.length.toLocaleString("en-US")} rows: x = ${header[x]}, y = ${header[y]}; +1 = '${positive}' (${plus.toLocaleString("en-US")}), −1 = ${rest} (${(points.length - plus).toLocaleString("en-US")}).`;
  return { points, summary };
}
