"""tf.contrib.cudnn_rnn against TF 1.15.5. TF 1.15's cuDNN layers ran only on a GPU; what it
did on CPU is recorded (tests/tf115_cases/contrib_cudnn_rnn.py): the cuDNN-compatible cells'
outputs with fixed weights, and the canonical names its saveables wrote. Our layers
(tests/tf115_cases/contrib_cudnn_rnn_layers.py) must give those cells' outputs with the same
weights and checkpoint under those names."""
import numpy as np
import pytest

from tf115_cases import harness

MODULE = "contrib_cudnn_rnn"


@pytest.fixture(scope="module")
def ours():
    return harness.run_here(MODULE)


@pytest.fixture(scope="module")
def layers():
    return harness.run_here(MODULE + "_layers")


@pytest.fixture(scope="module")
def theirs():
    return harness.recorded(MODULE)


@pytest.mark.parametrize("name", list(harness.cases(MODULE)))
def test_case_matches_tf115(ours, theirs, name):
    harness.compare(ours[name], theirs[name], harness.cases(MODULE)[name])


@pytest.mark.parametrize("layer_case, cells_case", [
    ("cudnn_lstm_layer", "compatible_lstm_stack"),
    ("cudnn_gru_bidirectional_layer", "compatible_gru_bidirectional")])
def test_layer_computes_what_tf115_compatible_cells_computed(layers, theirs, layer_case,
                                                             cells_case):
    """Same variables (names, shapes, order) as TF 1.15's CPU graph for the layer, same values."""
    assert "error" not in layers[layer_case], layers[layer_case]
    assert layers[layer_case]["variables"] == theirs[cells_case]["variables"]
    for key, value in theirs[cells_case]["values"].items():
        np.testing.assert_allclose(layers[layer_case]["values"][key], value, rtol=1e-5,
                                   atol=1e-6, err_msg=key)


def test_checkpoint_keys_are_tf115_canonical_names(layers, theirs):
    record = layers["checkpoint_keys_and_saveable_restore"]
    assert "error" not in record, record
    values = record["values"]
    names = theirs["saveable_canonical_names"]["values"]["CudnnLSTMSaveable_unidirectional"]
    tf115_keys = sorted(n.replace("layer/", "cudnn_lstm/", 1) for n in names)
    assert values["layer_keys"] == tf115_keys
    assert values["buffer_keys"] == tf115_keys
    # the buffer saved canonically and restored into the layer: the fixed weights of the case
    # above, so the layer computes TF 1.15's compatible-cell outputs
    np.testing.assert_allclose(values["out"], theirs["compatible_lstm_stack"]["values"]["out"],
                               rtol=1e-5, atol=1e-6)


def test_converter_round_trip(layers):
    from tf115_cases.contrib_cudnn_rnn import _fixed
    values = layers["checkpoint_keys_and_saveable_restore"]["values"]
    shapes = [[7, 16], [8, 16]]
    expected = np.concatenate([_fixed(s, i).ravel() for s, i in zip(shapes, (0, 2))])
    np.testing.assert_allclose(values["roundtrip"], expected, rtol=1e-6)


def test_skip_input_mode_names_the_fix():
    from estimator_compat.legacy.contrib import cudnn_rnn
    with pytest.raises(ValueError, match="linear_input"):
        cudnn_rnn.CudnnLSTM(1, 4, input_mode="skip_input")


def test_layer_called_twice_shares_its_variables(layers):
    record = layers["layer_called_twice_shares_its_variables"]
    assert "error" not in record, record
    assert [n for n, _ in record["variables"]] == [
        "cudnn_lstm/rnn/multi_rnn_cell/cell_0/cudnn_compatible_lstm_cell/kernel",
        "cudnn_lstm/rnn/multi_rnn_cell/cell_0/cudnn_compatible_lstm_cell/bias"]
    np.testing.assert_array_equal(record["values"]["eval"], record["values"]["again"])
