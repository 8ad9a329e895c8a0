"""The teaching toolkit: exam tasks with keys and a worksheet checker.

- :mod:`perceptronlab.teach.exams`: exam tasks with worked answer keys (“Perceptron Mistake Bound”).
- :mod:`perceptronlab.teach.checker`: the worksheet checker.
- :mod:`perceptronlab.teach.quiz`: the self-test (question cards, questions whose wrong options are the
  real slips), :mod:`perceptronlab.teach.lms` its Moodle XML and QTI export.
- :mod:`perceptronlab.teach.variants`: a variant per student; :mod:`perceptronlab.teach.gradebook`: a
  class's worksheets graded.

The lectures' datasets and the Littlestone adversary are implemented here too; their one public home
is :mod:`perceptronlab.datasets` and :mod:`perceptronlab.adversary`.
"""
