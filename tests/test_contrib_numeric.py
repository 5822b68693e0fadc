"""The numeric / utility tf.contrib modules against TF 1.15.5 (tests/tf115_cases/
contrib_numeric.py): integrate (odeint's values and info dict, odeint_fixed), solvers (CG,
CGLS, Lanczos), bayesflow.monte_carlo, reduce_slice_ops, resampler and periodic_resample
(values and gradients), proto, receptive_field, the projector, and every public name TF 1.15
had in the served submodules; the declined ones (rpc, ffmpeg, remote_fused_graph) name their
replacement."""
import pytest

from tf115_cases import harness

MODULE = "contrib_numeric"

ours, test_case_matches_tf115 = harness.case_tests(MODULE)


@pytest.mark.parametrize("dotted, replacement", [
    ("rpc.rpc", "grpcio"), ("rpc.try_rpc", "grpcio"), ("ffmpeg.decode_audio", "decode_wav"),
    ("ffmpeg.encode_audio", "encode_wav"), ("ffmpeg.decode_video", "tensorflow-io"),
    ("remote_fused_graph.remote_fused_graph_execute", "Hexagon")])
def test_declined_names_say_what_to_use(dotted, replacement):
    from estimator_compat.legacy import tf1_view
    module, name = dotted.split(".")
    with pytest.raises(AttributeError, match=replacement):
        getattr(getattr(tf1_view.build().contrib, module), name)


def test_receptive_field_of_a_resource_variable_graph():
    """TensorFlow 2's resource variables (ReadVariableOp of a VarHandleOp) feed a convolution
    where TF 1.15 knew only `<var>/read`: the same receptive field as the ref-variable graph."""
    import tensorflow as tf

    from estimator_compat.legacy.contrib import receptive_field
    v1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        image = v1.placeholder(tf.float32, [None, 32, 32, 1], name="image")
        w = v1.get_variable("w", [5, 5, 1, 1], use_resource=True)
        net = tf.nn.relu(v1.nn.conv2d(image, w, [1, 2, 2, 1], "VALID"))
        out = v1.nn.max_pool(net, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", name="out")
    field = receptive_field.compute_receptive_field_from_graph_def(graph, image, out)
    assert list(field) == [7, 7, 4, 4, 0, 0]
