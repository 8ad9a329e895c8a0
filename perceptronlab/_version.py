"""The version of perceptronlab, written once: ``pyproject.toml`` reads it from here (setuptools'
``dynamic = ["version"]``), and ``perceptronlab.__version__``, ``perceptronlab --version``, saved
models and the report show it."""

__version__ = "0.3.0"
