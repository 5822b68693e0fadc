"""tensorflow_estimator 2.15's `tpu.tpu_estimator` helpers on export outputs and host
transfers, which need no TPU: `_export_output_to_tensors(export_output)`,
`_clone_export_output_with_tensors(export_output, tensors)` (Classification / Regression /
PredictOutput, TensorFlow's own classes as everywhere in estimator_compat) and
`_verify_cross_hosts_transfer_size(tensor_dict, message)` (the 1 GiB limit of one transfer)."""
import numpy as np

from estimator_compat.export.outputs import (
    ClassificationOutput,
    PredictOutput,
    RegressionOutput,
)

_ONE_GIGABYTE = 1024 * 1024 * 1024
_TYPES_MESSAGE = ("`export_output` must be have type `ClassificationOutput`, "
                  "`RegressionOutput`, or `PredictOutput`; got {}.")


def _export_output_to_tensors(export_output):
    """[scores, classes], [value] or the PredictOutput's outputs' values, in order."""
    if isinstance(export_output, ClassificationOutput):
        return [export_output.scores, export_output.classes]
    if isinstance(export_output, RegressionOutput):
        return [export_output.value]
    if isinstance(export_output, PredictOutput):
        return list(export_output.outputs.values())
    raise ValueError(_TYPES_MESSAGE.format(export_output))


def _clone_export_output_with_tensors(export_output, tensors):
    """A new export output of the same class, over `tensors` (as _export_output_to_tensors
    lists them)."""
    if isinstance(export_output, ClassificationOutput):
        if len(tensors) != 2:
            raise ValueError(f"tensors must be of length 2; got {len(tensors)}.")
        return ClassificationOutput(*tensors)
    if isinstance(export_output, RegressionOutput):
        if len(tensors) != 1:
            raise ValueError(f"tensors must be of length 1; got {len(tensors)}")
        return RegressionOutput(*tensors)
    if isinstance(export_output, PredictOutput):
        return PredictOutput(dict(zip(export_output.outputs.keys(), tensors)))
    raise ValueError(_TYPES_MESSAGE.format(export_output))


def _verify_cross_hosts_transfer_size(tensor_dict, message):
    """ValueError (listing every key and shape) when the tensors total 1 GiB or more."""
    total_size = 0
    shapes = []
    for key, tensor in tensor_dict.items():
        total_size += np.prod(tensor.shape) * tensor.dtype.size
        shapes.append((key, tensor.shape))
    if total_size >= _ONE_GIGABYTE:
        given = "".join(f"\n -- Key: {key}, Shape: {shape}" for key, shape in shapes)
        raise ValueError(f"{message} The transfer size is larger than the protobuf limit. "
                         "Please consider to use Tensors with smaller shapes or reduce batch "
                         f"size. Given:{given}")
