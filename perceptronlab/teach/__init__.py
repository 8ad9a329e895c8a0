"""The teaching toolkit: exam tasks with keys and a worksheet checker.

- :mod:`perceptronlab.teach.exams`: exam tasks with worked answer keys (seed 000).
- :mod:`perceptronlab.teach.checker`: the worksheet checker.

The seeds' datasets and the Littlestone adversary are implemented here too; their one public home
is :mod:`perceptronlab.datasets` and :mod:`perceptronlab.adversary`.
"""
