"""`tf.contrib.kernel_methods`, served whole: explicit kernel maps for linear models
(learn/kernel_mappers.py: `RandomFourierFeatureMapper`; learn/kernel_linear.py:
`KernelLinearClassifier`; learn/multiclass_hinge.py: `sparse_multiclass_hinge_loss`)."""
from estimator_compat.learn import kernel_mappers
from estimator_compat.learn.kernel_linear import KernelLinearClassifier
from estimator_compat.learn.multiclass_hinge import sparse_multiclass_hinge_loss

RandomFourierFeatureMapper = kernel_mappers.RandomFourierFeatureMapper


def build():
    from estimator_compat.legacy.namespaces import namespace
    prefix = "tensorflow.contrib.kernel_methods.python"
    dense = namespace(prefix + ".mappers.dense_kernel_mapper",
                      "contrib.kernel_methods' dense_kernel_mapper.py",
                      DenseKernelMapper=kernel_mappers.DenseKernelMapper,
                      InvalidShapeError=kernel_mappers.InvalidShapeError)
    rff = namespace(prefix + ".mappers.random_fourier_features",
                    "contrib.kernel_methods' random_fourier_features.py",
                    RandomFourierFeatureMapper=RandomFourierFeatureMapper)
    mappers = namespace(prefix + ".mappers", "contrib.kernel_methods' mappers",
                        dense_kernel_mapper=dense, random_fourier_features=rff)
    estimators = namespace(prefix + ".kernel_estimators",
                           "contrib.kernel_methods' kernel_estimators.py",
                           KernelLinearClassifier=KernelLinearClassifier)
    losses = namespace(prefix + ".losses", "contrib.kernel_methods' losses.py",
                       sparse_multiclass_hinge_loss=sparse_multiclass_hinge_loss)
    python = namespace(prefix, "contrib.kernel_methods", mappers=mappers,
                       kernel_estimators=estimators, losses=losses)
    return namespace("tensorflow.contrib.kernel_methods",
                     "tf.contrib.kernel_methods (explicit kernel maps for linear models)",
                     __served_whole__=True, python=python,
                     KernelLinearClassifier=KernelLinearClassifier,
                     RandomFourierFeatureMapper=RandomFourierFeatureMapper,
                     sparse_multiclass_hinge_loss=sparse_multiclass_hinge_loss)
