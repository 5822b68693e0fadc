"""tf.contrib.estimator's `dnn_logit_fn_builder` / `linear_logit_fn_builder` and
`call_logit_fn`: TF 1.15's made their layers in the caller's variable scope
(`<scope>/hiddenlayer_0/kernel`, `<scope>/linear_model/x/weights`), as
tf.compat.v1.estimator.experimental's do (canned/logit_fns.py): the same functions."""
from estimator_compat.canned import logit_fns

call_logit_fn = logit_fns.call_logit_fn
dnn_logit_fn_builder = logit_fns.dnn_logit_fn_builder
linear_logit_fn_builder = logit_fns.linear_logit_fn_builder
