"""LinearSDCA: the names resolve and a linear estimator given it fails at construction with
what to use instead (the SDCA optimizer itself is not implemented yet: issue 18)."""
import pytest
import tensorflow as tf

import estimator_compat as ec


def test_linear_sdca_is_refused_clearly():
    ec.install()
    assert tf.compat.v1.estimator.experimental.LinearSDCA is ec.experimental.LinearSDCA
    sdca = tf.estimator.experimental.LinearSDCA(example_id_column="id",
                                                symmetric_l2_regularization=0.5)
    columns = [tf.feature_column.numeric_column("x")]
    for make in (tf.estimator.LinearClassifier, tf.estimator.LinearRegressor,
                 tf.compat.v1.estimator.LinearClassifier):
        with pytest.raises(NotImplementedError, match="optimizer='Ftrl'"):
            make(feature_columns=columns, optimizer=sdca)
    with pytest.raises(ValueError, match="example_id_column"):
        tf.estimator.experimental.LinearSDCA(example_id_column="")
