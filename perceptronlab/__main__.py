"""``python -m perceptronlab``: the same command line as the ``perceptronlab`` script."""

from perceptronlab.cli import main

if __name__ == "__main__":
    main(prog_name="python -m perceptronlab")
