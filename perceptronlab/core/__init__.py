"""The engine: the perceptron rule, exact and compiled, and the Run it reports."""
