"""HParams (tf.contrib.training.HParams): named, typed hyperparameters parsed from strings."""
import json
import numbers
import re

_PARAM = re.compile(r"\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>\[[^\]]*\]|[^,]*)\s*(?:,|$)")


def _cast(name, value, like):
    """`value` converted to the type of `like` (the current value), or a ValueError."""
    if isinstance(like, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
            return value.lower() in ("true", "1")
        raise ValueError(f"Could not cast hparam '{name}' of type bool from value {value!r}")
    if isinstance(like, numbers.Integral):
        if isinstance(value, bool):
            raise ValueError(f"Could not cast hparam '{name}' of type int from bool {value!r}")
        try:
            as_float = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"Could not cast hparam '{name}' of type int from {value!r}") from None
        if not as_float.is_integer():
            raise ValueError(f"Could not cast hparam '{name}' of type int from {value!r}: it "
                             "would lose its fractional part")
        return int(as_float)
    if isinstance(like, numbers.Real):
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ValueError(f"Could not cast hparam '{name}' of type float from "
                             f"{value!r}") from None
    if isinstance(like, str):
        if not isinstance(value, str):
            raise ValueError(f"Could not cast hparam '{name}' of type str from {value!r}")
        return value
    return value


class HParams:
    """Hyperparameters as attributes: `HParams(learning_rate=0.1, layers=[64, 32])`."""

    def __init__(self, hparam_def=None, model_structure=None, **kwargs):
        if hparam_def is not None:
            raise ValueError("HParams(hparam_def=...) (a protocol buffer) is not supported; "
                             "pass the hyperparameters as keyword arguments.")
        self._hparam_types = {}
        self._model_structure = model_structure
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def add_hparam(self, name, value):
        if getattr(self, name, None) is not None or name.startswith("_") or hasattr(HParams, name):
            raise ValueError(f"Hyperparameter name is reserved: {name}")
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError(f"Multi-valued hyperparameters cannot be empty: {name}")
            self._hparam_types[name] = (type(value[0]), True)
        else:
            self._hparam_types[name] = (type(value), False)
        setattr(self, name, list(value) if isinstance(value, (list, tuple)) else value)

    def set_hparam(self, name, value):
        if name not in self._hparam_types:
            raise KeyError(f"Unknown hyperparameter: {name}")
        current = getattr(self, name)
        if isinstance(current, list):
            if not isinstance(value, (list, tuple)):
                raise ValueError(f"Must not pass a scalar value to set hyperparameter {name} "
                                 "whose value is a list.")
            setattr(self, name, [_cast(name, v, current[0]) for v in value])
        else:
            if isinstance(value, (list, tuple)):
                raise ValueError(f"Must not pass a list to set hyperparameter {name} whose "
                                 "value is a scalar.")
            setattr(self, name, _cast(name, value, current))

    def del_hparam(self, name):
        if name in self._hparam_types:
            delattr(self, name)
            del self._hparam_types[name]

    def parse(self, values):
        """Overrides from a string like "learning_rate=0.3,layers=[16,8],name=foo"."""
        values = values or ""
        pos = 0
        updates = {}
        while pos < len(values):
            match = _PARAM.match(values, pos)
            if not match or match.end() == pos:
                raise ValueError(f"Malformed hyperparameter value: {values[pos:]!r}")
            pos = match.end()
            name, raw = match.group("name"), match.group("value").strip()
            if name not in self._hparam_types:
                raise ValueError(f"Unknown hyperparameter type for {name}: known hyperparameters "
                                 f"are {sorted(self._hparam_types)}")
            if raw.startswith("["):
                items = [v.strip() for v in raw[1:-1].split(",") if v.strip()]
                updates[name] = items
            else:
                updates[name] = raw
        for name, raw in updates.items():
            current = getattr(self, name)
            if isinstance(current, list):
                if not isinstance(raw, list):
                    raise ValueError(f"Must pass a list for multi-valued parameter: {name}.")
                self.set_hparam(name, [_cast(name, v, current[0]) for v in raw])
            else:
                if isinstance(raw, list):
                    raise ValueError(f"Must not pass a list for single-valued parameter: {name}.")
                self.set_hparam(name, _cast(name, raw, current))
        return self

    def override_from_dict(self, values_dict):
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def parse_json(self, values_json):
        return self.override_from_dict(json.loads(values_json))

    def values(self):
        """{name: value} of every hyperparameter."""
        return {name: getattr(self, name) for name in self._hparam_types}

    def to_json(self, indent=None, separators=None, sort_keys=False):
        return json.dumps(self.values(), indent=indent, separators=separators, sort_keys=sort_keys)

    def get(self, key, default=None):
        if key in self._hparam_types:
            return getattr(self, key)
        return default

    def get_model_structure(self):
        return self._model_structure

    def __contains__(self, key):
        return key in self._hparam_types

    def __str__(self):
        return str(sorted(self.values().items()))

    def __repr__(self):
        return f"{type(self).__name__}({self!s})"
