"""`tf.compat.v1.estimator.inputs`: input_fns over in-memory numpy arrays and pandas frames."""
from estimator_compat.inputs.numpy_io import numpy_input_fn  # noqa: F401
from estimator_compat.inputs.pandas_io import pandas_input_fn  # noqa: F401
