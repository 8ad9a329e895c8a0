"""The examples at the end of every command's ``--help``, in one table.

Each command shows two or three lines a user can paste, each with what it does. They use the
file names of the README (``data.csv``, ``new.csv``, ``model.json``), and the tests run every
one of them (``tests/test_cli_help.py``), so the help cannot drift from what the commands do.
"""

from __future__ import annotations

#: command name (None: the top level) → [(command line, what it does), ...]
EXAMPLES: dict[str | None, list[tuple[str, str]]] = {
    None: [
        (
            "perceptronlab demo",
            "the exam task of the lecture notes “Perceptron Mistake Bound” end to end",
        ),
        ("perceptronlab trace data.csv", "the exact worksheet of your own data"),
        ("perceptronlab train data.csv --intercept --out model.json", "train, and save the model"),
    ],
    "demo": [
        ("perceptronlab demo", "worksheet, bound, η = 2 and scikit-learn side by side"),
        ("perceptronlab demo --json", "the same numbers as JSON"),
    ],
    "trace": [
        ("perceptronlab trace data.csv", "the worksheet as a Markdown table"),
        ("perceptronlab trace data.csv --eta 1/2 --format latex", "η = 1/2, exactly, as LaTeX"),
        (
            "perceptronlab trace data.csv --intercept --margin 1 -f csv",
            "the margin perceptron with b",
        ),
    ],
    "train": [
        (
            "perceptronlab train data.csv --intercept --out model.json",
            "fit w and b, save the model",
        ),
        ("perceptronlab train data.csv --algorithm pocket --seed 0", "the best w on noisy data"),
        ("perceptronlab train data.csv --stream --max-sweeps 50", "out of core (the dask extra)"),
    ],
    "predict": [
        ("perceptronlab predict model.json new.csv", "one label per line"),
        ("perceptronlab predict model.json new.csv --out predictions.csv", "as a CSV file"),
    ],
    "evaluate": [
        ("perceptronlab evaluate model.json data.csv", "accuracy, confusion matrix, precision"),
        ("perceptronlab evaluate model.json data.csv --json", "the same numbers as JSON"),
    ],
    "analyze": [
        ("perceptronlab analyze data.csv", "separable? R, ρ*, the bound, leave-one-out"),
        ("perceptronlab analyze data.csv --intercept --json", "with an intercept, as JSON"),
        (
            "perceptronlab analyze data.csv --scale standard",
            "features in different units: standardise first",
        ),
    ],
    "report": [
        ("perceptronlab report data.csv --out report", "writes report/report.html"),
        ("perceptronlab report data.csv --intercept --title 'My data'", "with b and a heading"),
        (
            "perceptronlab report data.csv --scale maxabs --out scaled",
            "each feature into [-1, 1] first",
        ),
    ],
    "experiment": [
        (
            "perceptronlab experiment worst-case --out worst-case",
            "the basis vectors attain the bound",
        ),
        ("perceptronlab experiment non-separable --seed 1 --format svg", "Pocket keeps the best w"),
    ],
    "exam": [
        (
            "perceptronlab exam --kind trace --seed 7 --data-out data.csv --sheet-out sheet.csv",
            "a task, its data and a blank worksheet",
        ),
        (
            "perceptronlab exam --kind margin --solution --format pdf --out exam.pdf",
            "a printable PDF with the key (the pdf extra)",
        ),
        (
            "perceptronlab exam --kind generalization --seed 3 --format latex --standalone",
            "a whole LaTeX document",
        ),
    ],
    "check": [
        ("perceptronlab check sheet.csv", "a sheet from `exam --sheet-out` carries its data"),
        ("perceptronlab check my-sheet.csv --data data.csv --eta 1/2", "any sheet, with its data"),
    ],
    "quiz": [
        ("perceptronlab quiz --seed 7", "ten questions in the terminal, with a score"),
        (
            "perceptronlab quiz --seed 7 --count 30 --export moodle --out quiz.xml",
            "a Moodle question bank",
        ),
        (
            "perceptronlab quiz --seed 7 --count 30 --export qti --out quiz.zip",
            "a QTI package for Canvas",
        ),
    ],
    "serve": [
        ("perceptronlab serve", "the lab page on http://127.0.0.1:8000"),
        ("perceptronlab serve --port 8001 --open", "another port, opened in the browser"),
    ],
    "site": [
        (
            "perceptronlab site lab-site",
            "the lab as static files; then: python -m http.server -d lab-site",
        ),
        ("perceptronlab site public/lab", "into a course page's folder (any static server)"),
    ],
}


def epilog(command: str | None) -> str | None:
    """The help's closing "Examples" block for ``command`` (Rich markup escaped), or None."""
    from rich.markup import escape

    examples = EXAMPLES.get(command)
    if not examples:
        return None
    lines = ["[bold]Examples[/bold]"]
    for line, what in examples:
        lines += [f"  {escape(line)}", f"      {escape(what)}"]
    return "\n".join(lines)
