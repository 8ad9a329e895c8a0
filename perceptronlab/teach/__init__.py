"""The teaching toolkit: the seeds' datasets, the Littlestone adversary, exam tasks and a worksheet checker.

Each part lives in its own module and is imported on use:

- :mod:`perceptronlab.teach.datasets`: the seeds' datasets (exam task, margin task, basis vectors,
  Gaussian pairs, the Learning From Data target, non-separable clouds); public as
  :mod:`perceptronlab.datasets`.
- :mod:`perceptronlab.teach.adversary`: the Littlestone adversary (seed 001).
- :mod:`perceptronlab.teach.exams`: exam tasks with worked answer keys (seed 000).
- :mod:`perceptronlab.teach.checker`: the worksheet checker.
"""
