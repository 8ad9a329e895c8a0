"""The teaching toolkit: exam tasks with keys and a worksheet checker.

- :mod:`perceptronlab.teach.exams`: exam tasks with worked answer keys (“Perceptron Mistake Bound”).
- :mod:`perceptronlab.teach.checker`: the worksheet checker.
- :mod:`perceptronlab.teach.quiz`: the self-test (question cards, questions whose wrong options are the
  real slips), :mod:`perceptronlab.teach.lms` its Moodle XML and QTI export.
- :mod:`perceptronlab.teach.variants`: a variant per student; :mod:`perceptronlab.teach.gradebook`: a
  class's worksheets graded against its variants (:mod:`perceptronlab.teach.classkey`: the class's
  ``variants.csv`` and whose file is whose; :mod:`perceptronlab.teach.handin`: the handed-in files,
  read one at a time under a budget).

The lectures' datasets and the Littlestone adversary are implemented here too; their one public home
is :mod:`perceptronlab.datasets` and :mod:`perceptronlab.adversary`.
"""
