import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory):
    """The files make_data.py writes (digits TFRecords, MNIST-data/, iris CSVs), made once
    by running it as a TF 1.x program."""
    from helpers import PROGRAMS, run_program
    path = tmp_path_factory.mktemp("data")
    _, err = run_program(os.path.join(PROGRAMS, "make_data.py"), "--data_dir", path)
    assert "running make_data.py with TensorFlow 1.x's API: it uses tf.flags" in err
    assert sorted(os.listdir(path)) == ["MNIST-data", "digits_eval.tfrecords",
                                        "digits_train.tfrecords", "iris_test.csv",
                                        "iris_training.csv"]
    return str(path)
