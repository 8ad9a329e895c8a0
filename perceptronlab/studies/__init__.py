"""The studies: experiments that run the engine many times, and the report that explains one data set.

- :mod:`perceptronlab.studies.experiments`: the registry of the experiments and ``run_experiment``;
  one module per study: :mod:`~perceptronlab.studies.bound_vs_actual`, :mod:`~perceptronlab.studies.lfd`
  (Learning From Data), :mod:`~perceptronlab.studies.worst_case`, :mod:`~perceptronlab.studies.non_separable`,
  :mod:`~perceptronlab.studies.learners` (the family against scikit-learn's linear learners), each with its
  table, summary and figures in an :class:`~perceptronlab.studies._result.ExperimentResult`.
- :mod:`perceptronlab.studies.report`: the HTML report of one data set (the analysis, the run, the plots).
"""
