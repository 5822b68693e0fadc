"""List the ops TensorFlow 1.15 registered, with their attribute names: what a graph written
here may use for TF 1.15 to load it.

Run in the TF 1.15 side venv (Python 3.7, tensorflow==1.15.5); the output is committed as
`estimator_compat/export/tf115_ops.json` (read by `export/old_readers.py`):

    python tools/tf115_ops.py > estimator_compat/export/tf115_ops.json
"""
import json
import sys

import tensorflow as tf
from tensorflow.python.framework import op_def_registry

tf.contrib.resampler  # noqa: B018 - contrib's ops register when their module loads


def main():
    ops = op_def_registry.get_registered_ops()
    json.dump({"tensorflow": tf.__version__,
               "ops": {name: sorted(a.name for a in op.attr) for name, op in sorted(ops.items())}},
              sys.stdout, sort_keys=True, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
