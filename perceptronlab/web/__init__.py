"""The lab page: the lectures' interactive widget, served by ``perceptronlab serve`` and in Jupyter.

:mod:`perceptronlab.web.api` turns one request (points, labels, options) into the whole run and
the cards, within a budget of work; :mod:`perceptronlab.web.app` serves it with the page
(``static/``: ES modules around one state object, one CSS file, one HTML page), computing each request in a worker
process (:mod:`perceptronlab.web.pool`, :mod:`perceptronlab.web.worker`) behind a front door that
answers only its own page (:mod:`perceptronlab.web.guard`); :class:`perceptronlab.web.widget.Lab`
shows the same page in Jupyter (its modules joined into one by :mod:`perceptronlab.web.bundle`), and
:mod:`perceptronlab.web.snapshot` writes a run as one HTML file that plays back without a server.
"""
