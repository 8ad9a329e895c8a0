"""The lab page: the seeds' interactive widget, served by ``perceptronlab serve`` and in Jupyter.

:mod:`perceptronlab.web.api` turns one request (points, labels, options) into the whole run and
the cards; :mod:`perceptronlab.web.app` serves it with the page (``static/``: one ES module, one
CSS file, one HTML page); :class:`perceptronlab.widget.Lab` shows the same page in Jupyter.
"""
