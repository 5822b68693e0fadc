"""tf.contrib.learn's preprocessing, datasets, pandas/dask io, monitors, graph actions,
numpy `fit(x, y)` / SKCompat, queue readers, and tf.contrib.lookup's older names, against
TF 1.15.5's record of the same cases (tests/tf115_cases/contrib_learn.py); a program
in the style of tensorflow/examples' character CNN on DBpedia-format files."""
import os
import subprocess
import sys

import numpy as np
import pytest

from helpers import PROGRAMS, run_program
from tf115_cases import harness

CASES = "contrib_learn"


ours, test_case_matches_tf115 = harness.case_tests(CASES)


def test_served_whole():
    from estimator_compat.legacy import tf1_view
    tf = tf1_view.build()
    assert tf.contrib.lookup.__served_whole__
    assert tf.contrib.learn.__served_whole__


def test_capture_variable_reads_before_the_update(tmp_path):
    """TF 1.15's CaptureVariable read `w` after the step's update (0.02 at step 1); a hook
    here reads it before, so each value is TF 1.15's of the step before (documented)."""
    import tensorflow as tf
    from estimator_compat.learn import estimator, monitors
    x, y = np.ones((10, 3), np.float32), np.ones(10, np.float32)

    def model_fn(features, labels, mode):
        w = tf.compat.v1.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
        predictions = tf.matmul(features, w)
        loss = tf.compat.v1.losses.mean_squared_error(tf.reshape(labels, [-1, 1]), predictions)
        return predictions, loss, tf.compat.v1.train.GradientDescentOptimizer(0.01).minimize(
            loss, tf.compat.v1.train.get_global_step())
    capture = monitors.CaptureVariable("w", every_n=2, first_n=1)
    est = estimator.Estimator(model_fn, model_dir=str(tmp_path))
    est.fit(input_fn=lambda: (tf.constant(x), tf.constant(y)), steps=5, monitors=[capture])
    tf115 = {1: 0.02, 3: 0.056472, 5: 0.08869866}  # TF 1.15.5, after each update
    values = {k: float(v.ravel()[0]) for k, v in capture.values.items()}
    assert values[1] == 0.0 and values[3] == pytest.approx(0.0388, abs=1e-6)
    assert values[5] == pytest.approx(0.07308368, abs=1e-6) and sorted(tf115) == sorted(values)


def test_missing_files_say_where_to_put_them(tmp_path, monkeypatch):
    from estimator_compat.learn import datasets
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match=r"dbpedia_csv.tar.gz .*put it in .*"
                                                r"dbpedia_data"):
        datasets.load_dataset("dbpedia")
    with pytest.raises(FileNotFoundError, match="does not download"):
        datasets.base.maybe_download("x.csv", str(tmp_path), "https://example.com/")
    with pytest.raises(ValueError, match="first row must start with the number"):
        (tmp_path / "bad.csv").write_text("a,b\n1,2\n")
        datasets.load_csv_with_header(str(tmp_path / "bad.csv"), int, float)
    from estimator_compat.learn import learn_io
    try:
        import dask  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pip install 'dask"):
            learn_io.extract_dask_data(np.zeros(2))


def test_char_cnn_program_on_dbpedia_files(tmp_path):
    """tests/programs/char_cnn (tensorflow/examples' text_classification_character_cnn.py
    style: load_dataset('dbpedia'), ByteProcessor, conv1d model_fn, numpy_input_fn) on a
    DBpedia-format train.csv / test.csv of 400 / 200 rows the helper script writes.
    TF 1.15.5, the same files and command: accuracy 0.915 and 0.905 (two runs, step 60);
    here 0.92."""
    program = os.path.join(PROGRAMS, "char_cnn")
    subprocess.run([sys.executable, os.path.join(program, "make_dbpedia_csv.py"), tmp_path],
                   check=True)
    out, err = run_program(os.path.join(program, "char_cnn.py"), "--size", "large",
                           "--model_dir", tmp_path / "model", cwd=tmp_path)
    assert "Train bytes: (400, 64), first row [79, 102, 32, 105, 115, 32, 111, 102]" in out
    accuracy = float(out.split("Accuracy: ")[1].split()[0])
    assert accuracy > 0.85 and "global step 60" in err
