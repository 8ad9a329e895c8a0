"""The lab's exact engine in the standard library alone: it runs where NumPy does not (the browser).

- :mod:`~perceptronlab.pure.rule`: the perceptron's rule in Fractions (the mistake test and the
  update, written once: :mod:`perceptronlab.core.exact` uses them), and the traced exact run in
  cyclic order with its worksheet steps.
- :mod:`~perceptronlab.pure.geometry`: R², the nearest point of a convex hull to the origin (Wolfe's
  algorithm in Fractions): the best margin through the origin ρ*, or Gordan's certificate that no
  line (plane) separates, and Novikoff's bound R²/ρ*².

Nothing here imports NumPy, SciPy or Numba (an import-linter contract and a test with NumPy made
unimportable hold that): ``perceptronlab site`` copies these files into a static site whose page
runs them in Pyodide, and the lab server answers exact requests with the same functions.
"""
