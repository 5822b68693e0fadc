"""tf.contrib.kernel_methods' `KernelLinearClassifier`: contrib.learn's linear classifier
over features first mapped by explicit kernel mappers (learn/kernel_mappers.py).

`kernel_mappers` is {real-valued contrib.layers column: [DenseKernelMapper]}: each such
column's tensor is mapped by its mappers, the outputs concatenated into the feature
`<column>_MAPPED` and a real-valued column of that name and width added to the model (a column
may be both mapped and, if listed in `feature_columns`, used as it is). The model is then
contrib.learn's linear model (learn/head_estimators.py: `linear/<column>/weight`,
`linear/bias_weight`, Ftrl at min(0.2, 1/sqrt(number of columns)) unless `optimizer` is
given) under `multi_class_head(n_classes, weight_column_name)`, as TF 1.15 built it.
"""
import tensorflow as tf

from estimator_compat.learn import head_estimators, heads
from estimator_compat.learn.estimator import Estimator
from estimator_compat.learn.kernel_mappers import DenseKernelMapper

_MAPPED = "_MAPPED"


def _valid_mappers(kernel_mappers):
    return all(isinstance(mapper, DenseKernelMapper)
               for mappers in (kernel_mappers or {}).values() for mapper in mappers)


def mapped_features_and_columns(features, feature_columns, kernel_mappers):
    """(features with each mapped column's `<name>_MAPPED` tensor, the columns plus the
    mapped ones)."""
    from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc
    if not kernel_mappers:
        return features, list(feature_columns)
    features, columns = dict(features), list(feature_columns)
    for column, mappers in kernel_mappers.items():
        if not isinstance(column, fc._RealValuedColumn):
            tf.compat.v1.logging.warning(
                "Updates are currently supported on RealValuedColumns only. Metadata for "
                f"FeatureColumn {column.name} will not be updated.")
            continue
        name = column.name + _MAPPED
        mapped = fc.real_valued_column(name, sum(m.output_dim for m in mappers))
        if mapped not in columns:
            columns.append(mapped)
        features[name] = tf.concat([m.map(features[column.name]) for m in mappers], 1)
    return features, columns


def _kernel_model_fn(features, labels, mode, params, config=None):
    features, columns = mapped_features_and_columns(
        features, params["feature_columns"], params["kernel_mappers"])
    return head_estimators.model_fn("linear")(features, labels, mode, dict(
        params, feature_columns=columns), config)


class KernelLinearClassifier(Estimator):
    """A linear classifier (labels: class ids in [0, n_classes)) over the given columns and
    the kernel-mapped ones."""

    def __init__(self, feature_columns=None, model_dir=None, n_classes=2,
                 weight_column_name=None, optimizer=None, kernel_mappers=None, config=None):
        if not feature_columns and not kernel_mappers:
            raise ValueError("You should set at least one of feature_columns, kernel_mappers.")
        if not _valid_mappers(kernel_mappers):
            raise ValueError("Invalid kernel mappers.")
        head = heads.multi_class_head(n_classes=n_classes,
                                      weight_column_name=weight_column_name)
        params = {"head": head, "feature_columns": list(feature_columns or []),
                  "optimizer": optimizer, "kernel_mappers": kernel_mappers}
        super().__init__(model_fn=_kernel_model_fn, model_dir=model_dir, config=config,
                         params=params)

    def predict_classes(self, input_fn=None):
        """The predicted class id of each example (a generator)."""
        return (p["classes"] for p in self.predict(input_fn=input_fn, outputs=["classes"]))

    def predict_proba(self, input_fn=None):
        """The class probabilities of each example (a generator)."""
        return (p["probabilities"] for p in self.predict(input_fn=input_fn,
                                                         outputs=["probabilities"]))
