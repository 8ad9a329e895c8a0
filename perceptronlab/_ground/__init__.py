"""The ground every layer stands on (private): nothing here imports the rest of perceptronlab.

- :mod:`~perceptronlab._ground.validation`: input checks and their one-line messages.
- :mod:`~perceptronlab._ground.numbers`: exact numbers: bounded parsing, formatting, square roots.
- :mod:`~perceptronlab._ground.files`: files written atomically, and paths checked before reading.
- :mod:`~perceptronlab._ground.memory`: memory budgets (``max_bytes``) checked before allocating.
- :mod:`~perceptronlab._ground.markup`: text from users escaped for HTML, LaTeX and plots.
- :mod:`~perceptronlab._ground.types`: the type aliases of the public API.
"""
