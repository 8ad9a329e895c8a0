"""The rest of the perceptron family, each a small specialisation of the one engine.

- :func:`averaged_perceptron` / :class:`AveragedPerceptron`: the iterates averaged over every step.
- :func:`voted_perceptron` / :class:`VotedPerceptron`: every iterate votes with its survival count.
- :func:`kernel_perceptron` / :class:`KernelPerceptron`: the dual form with a kernel.
- :func:`multiclass_perceptron` / :class:`MulticlassPerceptron`: one weight vector per class.

All report through :class:`perceptronlab.Run` (subclasses adding what each needs), validate with
:mod:`perceptronlab._ground.validation`, and stop as the engine does: a clean sweep or ``max_sweeps``.
"""
