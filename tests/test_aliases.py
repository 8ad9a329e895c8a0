"""0.2.0's module names still import (deprecated): the same objects as the new modules."""

import importlib
import sys

import pytest


def _fresh_import(name: str):
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]
    return importlib.import_module(name)


def test_scale_is_distributed_with_a_deprecation_warning():
    import perceptronlab.distributed as new
    import perceptronlab.distributed.cluster
    import perceptronlab.distributed.mixing

    with pytest.warns(DeprecationWarning, match=r"perceptronlab\.distributed\b"):
        old = _fresh_import("perceptronlab.scale")
    assert old.__all__ == new.__all__
    for name in new.__all__:
        assert getattr(old, name) is getattr(new, name), name
    # 0.2.0's submodules: scale/distributed.py is now distributed/cluster.py
    import perceptronlab.scale.distributed
    import perceptronlab.scale.mixing

    assert sys.modules["perceptronlab.scale.mixing"] is perceptronlab.distributed.mixing
    assert sys.modules["perceptronlab.scale.distributed"] is perceptronlab.distributed.cluster
    from perceptronlab.scale.mixing import fit_in_process

    assert fit_in_process is new.fit_in_process


def test_river_is_river_classifiers_with_a_deprecation_warning():
    pytest.importorskip("river")
    import perceptronlab.river_classifiers as new

    with pytest.warns(DeprecationWarning, match=r"perceptronlab\.river_classifiers\b"):
        old = _fresh_import("perceptronlab.river")
    assert old.Perceptron is new.Perceptron
    assert old.AveragedPerceptron is new.AveragedPerceptron
    assert set(old.__all__) == set(new.__all__)
