"""Every public name of tf.estimator 2.15 under `tf.estimator` and `tf.compat.v1.estimator`
(157, listed from TF 2.15.1 + tensorflow-estimator 2.15.0 in
tests/fixtures/tf215_estimator_names.txt) resolves after `install()`."""
import os

import tensorflow as tf

import estimator_compat as ec
from helpers import ROOT

NAMES = os.path.join(ROOT, "tests", "fixtures", "tf215_estimator_names.txt")


def test_every_tf_estimator_2_15_name_resolves():
    ec.install()
    names = open(NAMES).read().split()
    assert len(names) == 157
    missing = []
    for name in names:
        obj = tf
        try:
            for part in name.split(".")[1:]:
                obj = getattr(obj, part)
        except AttributeError:
            missing.append(name)
    assert not missing
    assert tf.estimator.experimental.LinearSDCA is tf.compat.v1.estimator.experimental.LinearSDCA
    assert tf.compat.v1.estimator.experimental.KMeans is ec.experimental.KMeans
