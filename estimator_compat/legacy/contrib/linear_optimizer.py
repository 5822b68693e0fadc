"""`tf.contrib.linear_optimizer`, served whole: stochastic dual coordinate ascent for linear
models on TensorFlow's SDCA kernels (learn/sdca_model.py: `SdcaModel`, `SparseFeatureColumn`;
learn/sdca_optimizer.py: `SDCAOptimizer`, the `optimizer=` of contrib.learn's
LinearClassifier / LinearRegressor)."""
from estimator_compat.learn.sdca_model import SdcaModel, SparseFeatureColumn
from estimator_compat.learn.sdca_optimizer import SDCAOptimizer


def build():
    from estimator_compat.legacy.namespaces import namespace
    sdca_ops = namespace("tensorflow.contrib.linear_optimizer.python.ops.sdca_ops",
                         "contrib.linear_optimizer's sdca_ops.py", SdcaModel=SdcaModel)
    column = namespace(
        "tensorflow.contrib.linear_optimizer.python.ops.sparse_feature_column",
        "contrib.linear_optimizer's sparse_feature_column.py",
        SparseFeatureColumn=SparseFeatureColumn)
    ops = namespace("tensorflow.contrib.linear_optimizer.python.ops",
                    "contrib.linear_optimizer's ops", sdca_ops=sdca_ops,
                    sparse_feature_column=column)
    optimizer = namespace("tensorflow.contrib.linear_optimizer.python.sdca_optimizer",
                          "contrib.linear_optimizer's sdca_optimizer.py",
                          SDCAOptimizer=SDCAOptimizer)
    python = namespace("tensorflow.contrib.linear_optimizer.python",
                       "contrib.linear_optimizer", ops=ops, sdca_optimizer=optimizer)
    return namespace("tensorflow.contrib.linear_optimizer",
                     "tf.contrib.linear_optimizer (SDCA for linear models)",
                     __served_whole__=True, python=python, SdcaModel=SdcaModel,
                     SparseFeatureColumn=SparseFeatureColumn, SDCAOptimizer=SDCAOptimizer)
