"""contrib.learn's pandas and dask extractors (`extract_pandas_data`, `extract_pandas_labels`,
`extract_pandas_matrix`, `extract_dask_data`, `extract_dask_labels`).

A pandas DataFrame becomes its values (numeric and bool columns only, as TF 1.15 checked;
labels one column); anything else passes through. dask is not a dependency: without it the
dask extractors raise an error saying to install it.
"""
import numpy as np

_NUMERIC = "iufb"


def _is_pandas(value, kind):
    return type(value).__module__.startswith("pandas") and type(value).__name__ == kind


def extract_pandas_data(data):
    """A DataFrame's values (int, float or bool columns); other data unchanged."""
    if not _is_pandas(data, "DataFrame"):
        return data
    bad = [(name, dtype) for name, dtype in data.dtypes.items() if dtype.kind not in _NUMERIC]
    if bad:
        raise ValueError("Data types for extracting pandas data must be int, float, or bool. "
                         "Found: " + ", ".join(f"'{n}' type='{d}'" for n, d in bad))
    return data.values


def extract_pandas_labels(labels):
    """A one-column DataFrame's values (int, float or bool); other labels unchanged."""
    if not _is_pandas(labels, "DataFrame"):
        return labels
    if len(labels.columns) > 1:
        raise ValueError("Only one column for labels is allowed.")
    bad = [(name, dtype) for name, dtype in labels.dtypes.items() if dtype.kind not in _NUMERIC]
    if bad:
        raise ValueError("Data types for extracting labels must be int, float, or bool. "
                         "Found: " + ", ".join(f"'{n}' type={d}" for n, d in bad))
    return labels.values


def extract_pandas_matrix(data):
    """A DataFrame's values as one matrix (any dtypes); other data unchanged."""
    if not _is_pandas(data, "DataFrame"):
        return data
    return data.values


def _dask():
    try:
        import dask.dataframe
    except ImportError:
        raise ImportError("tf.contrib.learn's extract_dask_data / extract_dask_labels need "
                          "dask: pip install 'dask[dataframe]' (or pass numpy arrays or "
                          "pandas objects, which need no extraction).") from None
    return dask.dataframe


def extract_dask_data(data):
    """A dask DataFrame or Series computed to a numpy array; other data unchanged."""
    dd = _dask()
    if isinstance(data, (dd.DataFrame, dd.Series)):
        return np.asarray(data.compute())
    return data


def extract_dask_labels(labels):
    """dask labels (one column) computed to a numpy array; other labels unchanged."""
    dd = _dask()
    if isinstance(labels, dd.DataFrame) and len(labels.columns) > 1:
        raise ValueError("Only one column for labels is allowed.")
    if isinstance(labels, (dd.DataFrame, dd.Series)):
        return np.asarray(labels.compute())
    return labels
