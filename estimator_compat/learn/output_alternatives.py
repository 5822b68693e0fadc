"""contrib.learn's SignatureDefs: a model's output alternatives, standardized as TF 1.15 did.

TF 1.15's contrib.learn export wrote each output alternative (a head's problem type and
tensors) under `default_input_alternative:<head name or None>` (a model without alternatives:
its predictions as `default_input_alternative:default_output_alternative`) and the default one
again as `serving_default`. Each became a classify signature where the problem is a
classification or logistic regression with one input and string `classes` or `scores` /
`probabilities` (or one output), a regress signature for a linear regression with one input
and one output, a predict signature otherwise.
"""
import tensorflow as tf

from estimator_compat.export.outputs import ExportOutput

INPUT_ALTERNATIVE = "default_input_alternative"
FALLBACK_OUTPUT_ALTERNATIVE = "default_output_alternative"
_CLASSIFICATION, _LINEAR_REGRESSION, _LOGISTIC_REGRESSION = 1, 2, 3  # ProblemType's values


class ExportRefused(ValueError):
    """An output alternative TF 1.15 could not export: the export fails (not the signature
    alone, as tf.estimator's invalid signatures were left out)."""
    refuses_export = True


class StandardizedOutput(ExportOutput):
    """One output alternative; its signature is chosen from the receiver's tensors too."""

    def __init__(self, problem_type, outputs):
        self._problem_type = problem_type
        self._outputs = dict(outputs)

    @property
    def outputs(self):
        return self._outputs

    def as_signature_def(self, receiver_tensors):
        inputs, outputs = dict(receiver_tensors), self._outputs
        if not inputs or not outputs:
            raise ValueError("input_tensors and output_tensors must be provided.")
        classes = outputs.get("classes")
        if classes is not None and classes.dtype != tf.string:
            classes = None
        scores = outputs.get("scores", outputs.get("probabilities"))
        one_input = len(inputs) == 1
        if self._problem_type in (_CLASSIFICATION, _LOGISTIC_REGRESSION) and one_input and (
                classes is not None or scores is not None or len(outputs) == 1):
            if classes is None and scores is None:
                only = next(iter(outputs.values()))
                classes, scores = (only, None) if only.dtype == tf.string else (None, only)
            examples = next(iter(inputs.values()))
            if examples.dtype != tf.string:  # TF 1.15's words (its export stopped there)
                raise ExportRefused("Classification examples must be a string Tensor.")
            return tf.compat.v1.saved_model.classification_signature_def(
                examples, classes, scores)
        if self._problem_type == _LINEAR_REGRESSION and one_input and len(outputs) == 1:
            return tf.compat.v1.saved_model.regression_signature_def(
                next(iter(inputs.values())), next(iter(outputs.values())))
        return tf.compat.v1.saved_model.predict_signature_def(inputs, outputs)


class _NoDefault(ExportOutput):
    """`serving_default` where TF 1.15 found no default alternative: predict runs (it needs
    none), an export fails with TF 1.15's error."""

    def __init__(self, message):
        self._message = message

    @property
    def outputs(self):
        return {}

    def as_signature_def(self, receiver_tensors):
        raise ExportRefused(self._message)


def export_outputs(alternatives, predictions, default_key):
    """{signature key: StandardizedOutput} of a ModelFnOps' output_alternatives."""
    refused = None
    if not alternatives:
        if default_key:
            refused = (f"Requested default_output_alternative: {default_key}, but available "
                       "output_alternatives are: []")
        outputs = predictions if isinstance(predictions, dict) else {"output": predictions}
        alternatives = {FALLBACK_OUTPUT_ALTERNATIVE: (0, outputs)}
        default_key = FALLBACK_OUTPUT_ALTERNATIVE
    elif default_key:
        if default_key not in alternatives:
            refused = (f"Requested default_output_alternative: {default_key}, but available "
                       f"output_alternatives are: {sorted(alternatives, key=str)}")
    elif len(alternatives) == 1:
        default_key = next(iter(alternatives))
    else:
        refused = ("Please specify a default_output_alternative.  Available "
                   f"output_alternatives are: {sorted(alternatives, key=str)} "
                   "(export_savedmodel(default_output_alternative_key=...))")
    out = {}
    for key, (problem_type, tensors) in alternatives.items():
        tensors = tensors if isinstance(tensors, dict) else {"output": tensors}
        out[f"{INPUT_ALTERNATIVE}:{key or 'None'}"] = StandardizedOutput(problem_type, tensors)
    out["serving_default"] = _NoDefault(refused) if refused else \
        out[f"{INPUT_ALTERNATIVE}:{default_key or 'None'}"]
    return out
