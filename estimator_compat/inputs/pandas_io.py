"""pandas_input_fn: an input_fn over a pandas DataFrame (pandas is optional)."""
from estimator_compat.inputs.numpy_io import numpy_input_fn


def pandas_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000,
                    num_threads=1, target_column="target"):
    """Returns an input_fn yielding ({column: values}, target) batches of DataFrame `x`."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("pandas_input_fn needs pandas: pip install pandas") from None
    if not isinstance(x, pd.DataFrame):
        raise TypeError(f"x must be a pandas DataFrame, given: {type(x).__name__}")
    if y is not None:
        if target_column in x:
            raise ValueError(f"Cannot use name {target_column} for target column: DataFrame "
                             f"already has a column with that name: {list(x.columns)}")
        if not x.index.equals(y.index):
            raise ValueError("Index for x and y are mismatched.\nIndex for x: "
                             f"{x.index}\nIndex for y: {y.index}\n")
        if isinstance(y, pd.DataFrame):
            y = {column: y[column].values for column in y.columns}
        else:
            y = y.values
    features = {column: x[column].values for column in x.columns}
    return numpy_input_fn(features, y, batch_size=batch_size, num_epochs=num_epochs,
                          shuffle=shuffle, queue_capacity=queue_capacity, num_threads=num_threads)
