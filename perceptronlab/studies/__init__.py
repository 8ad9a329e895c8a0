"""The studies: experiments that run the engine many times, and the report that explains one data set.

- :mod:`perceptronlab.studies.experiments`: the lecture notes' and the notebook's experiments (the
  squeeze, bound against actual, the worst case, non-separable data and the pocket, Learning From Data)
  with their figures and tables.
- :mod:`perceptronlab.studies.learners`: the family's learners side by side on one data set.
- :mod:`perceptronlab.studies.report`: the HTML report of one data set (the analysis, the run, the plots).
"""
