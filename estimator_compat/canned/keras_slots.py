"""Continuing a model_dir of tf.estimator 2.15's V2 canned estimators.

Their optimizers were Keras ones, whose slots are saved as `training/<Optimizer>/<var>/<slot>`;
estimator_compat trains with the compat.v1 optimizer of the same update rule, whose slots are
`<var>/<Name>`. On restore, a slot missing under our name is read from the Keras one (with the
conversion where the two keep different quantities), so training goes on where 2.15 stopped.
keras_slot_names maps each optimizer it knows exactly (and writes these names); this reads the
first Keras optimizer's names by pattern, for the slots it does not map.
"""
import re

import numpy as np

_SLOT = re.compile(r"^(?P<var>.+)/(?P<slot>Adagrad|Ftrl|Ftrl_1|Adam|Adam_1|RMSProp|RMSProp_1|"
                   r"Momentum)$")
_KERAS = {"Adagrad": ("Adagrad", "accumulator"), "Ftrl": ("Ftrl", "accumulator"),
          "Ftrl_1": ("Ftrl", "linear"), "Adam": ("Adam", "m"), "Adam_1": ("Adam", "v"),
          "RMSProp": ("RMSprop", "rms"), "RMSProp_1": ("RMSprop", "momentum"),
          "Momentum": ("SGD", "momentum")}


def _slot_value(name, reader):
    match = _SLOT.match(name)
    if not match:
        return None
    optimizer, slot = _KERAS[match["slot"]]
    key = f"training/{optimizer}/{match['var']}/{slot}"
    if not reader.has_tensor(key):
        if match["slot"] == "RMSProp_1" and reader.has_tensor(
                f"training/RMSprop/{match['var']}/rms"):
            return np.zeros_like(reader.get_tensor(f"training/RMSprop/{match['var']}/rms"))
        return None  # RMSprop without momentum kept none: it stays unused at 0
    value = reader.get_tensor(key)
    if match["slot"] == "Momentum":
        # Keras: m <- momentum * m - lr * g; compat.v1: a <- momentum * a + g; so a = -m / lr
        value = -value / reader.get_tensor("training/SGD/learning_rate")
    return value


def _beta_power(name, reader):
    """compat.v1 Adam's beta<i>_power after `global_step` steps: beta_i ** (step + 1)."""
    match = re.search(r"(^|/)beta([12])_power$", name)
    if not match or not reader.has_tensor(f"training/Adam/beta_{match[2]}"):
        return None
    beta = reader.get_tensor(f"training/Adam/beta_{match[2]}")
    step = reader.get_tensor("global_step") if reader.has_tensor("global_step") else 0
    return np.asarray(beta ** (step + 1), np.float32)


def fill_from_keras_slots(missing, reader, variables):
    """{name: value} of the `missing` compat.v1 slots the checkpoint holds as Keras slots."""
    filled = {}
    for name in missing:
        value = _slot_value(name, reader)
        if value is None:
            value = _beta_power(name, reader)
        if value is not None and list(np.shape(value)) == variables[name].shape.as_list():
            filled[name] = value
    return filled
