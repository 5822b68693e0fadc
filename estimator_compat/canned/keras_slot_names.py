"""The V2 canned estimators' checkpoints under tf.estimator 2.15's Keras optimizer names.

2.15's V2 classes trained with Keras (legacy) optimizers, saved as
`training/<Optimizer>/<var>/<slot>` plus the optimizer's hyperparameter variables
(`training/Adagrad/learning_rate`, `.../decay`, ...; `.../iter` for an optimizer other than the
first, whose `iterations` was the global step). estimator_compat trains with the compat.v1
optimizer of the same update rule, whose slots are `<var>/Adagrad`; the variables keep those
names here and only the checkpoint is renamed: on save our slots are written under the Keras
names, with the hyperparameters 2.15 held (so tf.estimator 2.15 continues from our model_dir),
and on restore they are read back (as are 2.15's own, and our older `<var>/Adagrad` ones, which
match the variables' names). Where the two update rules keep different quantities the value is
converted: SGD's momentum (Keras m = -learning_rate * compat.v1 accumulator); Adam's
`beta<i>_power` (compat.v1) is beta_i ** (iterations + 1).

`get_optimizer` notes each optimizer a V2 class makes from a name or a Keras optimizer
(`note`); `for_store(store)` gives CheckpointIO the mapping of that estimator's variables.
"""
import threading
import weakref

import numpy as np
import tensorflow as tf

from estimator_compat.canned.keras_slots import fill_from_keras_slots
from estimator_compat.checkpoint_holders import Holders, read_through
from estimator_compat.variables import current_store

v1 = tf.compat.v1
_ZERO_DECAY = {"decay": 0.0}  # Keras' learning-rate decay: none (from_keras converts none)
# compat.v1 class: (Keras name, {compat.v1 slot: Keras slot}, hyperparameters(optimizer))
_KERAS = {
    v1.train.AdagradOptimizer: ("Adagrad", {"accumulator": "accumulator"},
                                lambda o: {"learning_rate": o._learning_rate}),
    v1.train.AdamOptimizer: ("Adam", {"m": "m", "v": "v"}, lambda o: {
        "learning_rate": o._lr, "beta_1": o._beta1, "beta_2": o._beta2}),
    v1.train.FtrlOptimizer: ("Ftrl", {"accum": "accumulator", "linear": "linear"}, lambda o: {
        "learning_rate": o._learning_rate, "learning_rate_power": o._learning_rate_power,
        "l1_regularization_strength": o._l1_regularization_strength,
        "l2_regularization_strength": o._l2_regularization_strength, "beta": o._beta}),
    v1.train.RMSPropOptimizer: ("RMSprop", {"rms": "rms", "momentum": "momentum", "mg": "mg"},
                                lambda o: {"learning_rate": o._learning_rate, "rho": o._decay,
                                           "momentum": o._momentum}),
    v1.train.MomentumOptimizer: ("SGD", {"momentum": "momentum"}, lambda o: {
        "learning_rate": o._learning_rate, "momentum": o._momentum}),
    v1.train.GradientDescentOptimizer: ("SGD", {}, lambda o: {
        "learning_rate": o._learning_rate, "momentum": 0.0}),
    v1.train.AdadeltaOptimizer: ("Adadelta", {"accum": "accum_grad",
                                              "accum_update": "accum_var"},
                                 lambda o: {"learning_rate": o._lr, "rho": o._rho}),
}
_NOTED = weakref.WeakKeyDictionary()  # store: (trace graph, [optimizers in creation order])
_LOCK = threading.Lock()


def note(optimizer):
    """Records a V2 canned estimator's optimizer (in its train trace, in creation order: the
    combined model's DNN optimizer first, as 2.15 made them)."""
    given = optimizer
    optimizer = getattr(optimizer, "_inner", optimizer)  # ClippedOptimizer
    store = current_store()
    if store is None or type(optimizer) not in _KERAS:
        return given
    graph = v1.get_default_graph()
    with _LOCK:
        noted_graph, optimizers = _NOTED.get(store, (None, []))
        if noted_graph is not graph:  # a new train trace: its optimizers replace the last's
            optimizers = []
        if not any(o is optimizer for o in optimizers):
            optimizers.append(optimizer)
        _NOTED[store] = (graph, optimizers)
    return given


def _number(value):
    """A hyperparameter's value, or None where it is a tensor or schedule (2.15 saved none)."""
    if isinstance(value, (int, float, np.number)):
        return float(value)
    return None


class _Optimizer:
    """One noted optimizer: its Keras prefix, hyperparameters and slots by our name."""

    def __init__(self, optimizer, prefix, first, names):
        self.prefix = prefix
        self.kind, slot_map, hypers = _KERAS[type(optimizer)]
        values = {k: _number(v) for k, v in dict(hypers(optimizer), **_ZERO_DECAY).items()}
        self.learning_rate = values["learning_rate"]
        self.hypers = {k: v for k, v in values.items() if v is not None}
        self.iter = not first  # the first optimizer's iterations were the global step
        self.momentum = getattr(optimizer, "_momentum", None)
        self.slots = {}  # our name: Keras key
        for slot, by_var in optimizer._slots.items():
            if slot not in slot_map:
                continue
            for var in by_var.values():
                name = names.get(id(var))
                if name is not None:
                    self.slots[name] = f"{prefix}/{name.rsplit('/', 1)[0]}/{slot_map[slot]}"
        self.powers = {}  # our name of Adam's beta<i>_power: i
        for key, var in getattr(optimizer, "_non_slot_dict", {}).items():
            base = key[0] if isinstance(key, tuple) else key
            name = names.get(id(var))
            if name is not None and base in ("beta1_power", "beta2_power"):
                self.powers[name] = base[4]

    def converts(self, name):
        """SGD momentum's slot holds another quantity (needs a known learning rate)."""
        return self.kind == "SGD" and name in self.slots

    def dropped(self, name):
        """Ours but not Keras': Adam's beta powers; RMSprop's momentum slot without momentum
        (compat.v1 keeps one, Keras none)."""
        return name in self.powers or (self.kind == "RMSprop" and not self.momentum and
                                       self.slots.get(name, "").endswith("/momentum"))


class KerasSlotNames:
    """CheckpointIO's hook for a V2 canned estimator: `for_store(store)` is bound to its
    variables. Unbound (no optimizer noted yet) it reads 2.15's names as keras_slots does."""

    def __call__(self, missing, reader, variables):
        return fill_from_keras_slots(missing, reader, variables)

    def for_store(self, store):
        return _Bound(store)


class _Bound:
    def __init__(self, store):
        self._store = store
        self._holder = Holders()  # 2.15's values that are no variable here

    def _optimizers(self):
        _, optimizers = _NOTED.get(self._store, (None, []))
        names = {id(v): n for n, v in self._store.saveable().items()}
        made, seen = [], {}
        for i, optimizer in enumerate(optimizers):
            kind = _KERAS[type(optimizer)][0]
            count = seen[kind] = seen.get(kind, -1) + 1
            prefix = f"training/{kind}" + (f"_{count}" if count else "")
            made.append(_Optimizer(optimizer, prefix, i == 0, names))
        return made

    def save_entries(self, entries):
        """{checkpoint name: variable} to write: our slots under 2.15's names, plus the
        hyperparameter variables 2.15 had."""
        optimizers = self._optimizers()
        if not optimizers:
            return entries
        step = self._store.get("global_step")
        out = dict(entries)
        for opt in optimizers:
            for name, key in opt.slots.items():
                if name not in out:
                    continue
                var = out.pop(name)
                if opt.dropped(name):
                    continue
                if opt.converts(name):
                    if opt.learning_rate is None:  # a schedule: kept under our name
                        out[name] = var
                        continue
                    var = self._holder(key, -opt.learning_rate * var.read_value())
                out[key] = var
            for name in opt.powers:
                out.pop(name, None)
            for hyper, value in opt.hypers.items():
                out[f"{opt.prefix}/{hyper}"] = self._holder(f"{opt.prefix}/{hyper}", value)
            if opt.iter and step is not None:
                out[f"{opt.prefix}/iter"] = self._holder(f"{opt.prefix}/iter",
                                                         step.read_value(), tf.int64)
        return out

    def __call__(self, missing, reader, variables):
        """{our name: value} of the `missing` variables, read from 2.15's names."""
        filled = read_through(self._optimizers(), self._value, missing, reader, variables)
        rest = [n for n in missing if n not in filled]
        if rest:
            filled.update(fill_from_keras_slots(rest, reader, variables))
        return filled

    @staticmethod
    def _value(opt, name, reader):
        if name in opt.powers:
            beta = f"{opt.prefix}/beta_{opt.powers[name]}"
            step = f"{opt.prefix}/iter" if reader.has_tensor(f"{opt.prefix}/iter") \
                else "global_step"
            if not reader.has_tensor(beta) or not reader.has_tensor(step):
                return None
            return np.asarray(reader.get_tensor(beta) ** (reader.get_tensor(step) + 1),
                              np.float32)
        key = opt.slots.get(name)
        if key is None:
            return None
        if not reader.has_tensor(key):
            if opt.dropped(name):  # RMSprop without momentum: unused, 0
                rms = key.rsplit("/", 1)[0] + "/rms"
                return np.zeros_like(reader.get_tensor(rms)) if reader.has_tensor(rms) else None
            return None
        value = reader.get_tensor(key)
        if opt.converts(name):
            rate = f"{opt.prefix}/learning_rate"
            rate = reader.get_tensor(rate) if reader.has_tensor(rate) else opt.learning_rate
            if rate is None:
                return None
            value = -value / rate
        return value
