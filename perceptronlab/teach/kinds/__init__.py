"""The kinds of exam task, one module each; :func:`perceptronlab.teach.exams.generate` picks one."""
