"""EstimatorSpec validation: each bad field a clear error naming it."""
import pytest
import tensorflow as tf

import estimator_compat as ec


@pytest.fixture
def t():
    return tf.constant(1.0)


def test_mode_keys():
    assert (ec.ModeKeys.TRAIN, ec.ModeKeys.EVAL, ec.ModeKeys.PREDICT) == ("train", "eval", "infer")


def test_missing_fields(t):
    with pytest.raises(ValueError, match="Missing loss"):
        ec.EstimatorSpec("train", train_op=tf.no_op())
    with pytest.raises(ValueError, match="Missing train_op"):
        ec.EstimatorSpec("train", loss=t)
    with pytest.raises(ValueError, match="Missing loss"):
        ec.EstimatorSpec("eval")
    with pytest.raises(ValueError, match="Missing predictions"):
        ec.EstimatorSpec("infer")
    with pytest.raises(ValueError, match="unrecognized"):
        ec.EstimatorSpec("fit", loss=t)


def test_wrong_types(t):
    with pytest.raises(ValueError, match="Loss must be scalar"):
        ec.EstimatorSpec("eval", loss=tf.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="loss must be Tensor"):
        ec.EstimatorSpec("eval", loss=1.0)
    with pytest.raises(TypeError, match="train_op must be Operation or Tensor"):
        ec.EstimatorSpec("train", loss=t, train_op="op")
    with pytest.raises(TypeError, match=r"predictions\[p\] must be Tensor"):
        ec.EstimatorSpec("infer", predictions={"p": 3})
    with pytest.raises(TypeError, match="eval_metric_ops must be a dict"):
        ec.EstimatorSpec("eval", loss=t, eval_metric_ops=[t])
    with pytest.raises(TypeError, match="for key: acc"):
        ec.EstimatorSpec("eval", loss=t, eval_metric_ops={"acc": t})
    with pytest.raises(TypeError, match="ExportOutput"):
        ec.EstimatorSpec("infer", predictions=t, export_outputs={"x": t})
    with pytest.raises(TypeError, match="SessionRunHook"):
        ec.EstimatorSpec("eval", loss=t, evaluation_hooks=[object()])


def test_loss_of_shape_one_is_reshaped(t):
    spec = ec.EstimatorSpec("eval", loss=tf.constant([2.0]))
    assert spec.loss.shape == []
    good = ec.EstimatorSpec("infer", predictions={"p": t},
                            export_outputs={"serving_default": ec.PredictOutput({"p": t})})
    assert set(good.export_outputs) == {"serving_default"}
    with pytest.raises(ValueError, match="cannot be changed"):
        good._replace(mode="train")
