"""contrib.learn's `LinearClassifier` / `LinearRegressor` given tf.estimator's `LinearSDCA`
(`tf.estimator.experimental.LinearSDCA`, which TF 1.15's contrib.learn never took: its SDCA was
`tf.contrib.linear_optimizer.SDCAOptimizer`, learn/sdca_optimizer.py): tf.estimator's canned
linear model trained by SDCA, with contrib.learn's argument names (`weight_column_name`,
`label_keys`, `feature_engineering_fn`) and API. Every other optimizer and column makes TF 1.15's
own models (learn/canned_classes.py).
"""
from estimator_compat import canned
from estimator_compat.learn.estimator import _CannedClassifier, _CannedRegressor


class LinearClassifier(_CannedClassifier, canned.LinearClassifier):
    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column_name=None,
                 optimizer=None, gradient_clip_norm=None, enable_centered_bias=False,
                 _joint_weight=False, config=None, feature_engineering_fn=None, label_keys=None):
        # (SDCA took no gradient clipping in TF 1.15; canned_classes.py refuses the rest)
        super().__init__(list(feature_columns or []), model_dir=model_dir, n_classes=n_classes,
                         weight_column=weight_column_name, label_vocabulary=label_keys,
                         optimizer=optimizer, config=config)
        self._contrib_setup(feature_engineering_fn)


class LinearRegressor(_CannedRegressor, canned.LinearRegressor):
    def __init__(self, feature_columns, model_dir=None, weight_column_name=None, optimizer=None,
                 gradient_clip_norm=None, enable_centered_bias=False, label_dimension=1,
                 _joint_weights=False, config=None, feature_engineering_fn=None):
        super().__init__(list(feature_columns or []), model_dir=model_dir,
                         label_dimension=label_dimension, weight_column=weight_column_name,
                         optimizer=optimizer, config=config)
        self._contrib_setup(feature_engineering_fn)
