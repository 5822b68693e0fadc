"""`parse_values` of tf.contrib.training's hparam module: "a=1,b=[2,3],c[1]=4" parsed with a
{name: type} map into {name: value}; `HParams` itself lives in `estimator_compat.learn`."""
import re

_ITEM = re.compile(r"\s*(?P<name>[A-Za-z_]\w*)\s*(\[\s*(?P<index>\d+)\s*\])?\s*=\s*"
                   r"(?P<value>\[[^\]]*\]|[^,]*)\s*(,|$)")


def _convert(name, raw, kind, values):
    text = raw.strip()
    fail = ValueError(f"Could not parse hparam '{name}' of type '{kind.__name__}' with value "
                      f"'{text}' in {values}")
    if kind is bool:
        if text.lower() in ("true", "1"):
            return True
        if text.lower() in ("false", "0"):
            return False
        raise fail
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise fail from None
    if kind is float:
        try:
            return float(text)
        except ValueError:
            raise fail from None
    if kind is str:
        return text
    try:
        return kind(text)
    except (TypeError, ValueError):
        raise fail from None


def parse_values(values, type_map, ignore_unknown=False):
    """{name: value} of a string like "lr=0.1,layers=[16,8],keep[2]=0.5": each value cast to
    `type_map[name]` (a list written `[...]` gives a list, `name[i]=v` a {i: v} dict). A
    name given twice, a name `type_map` lacks (unless `ignore_unknown`), or a value that does
    not cast raises ValueError."""
    results = {}
    pos = 0
    while pos < len(values):
        match = _ITEM.match(values, pos)
        if not match or match.end() == pos:
            raise ValueError(f"Malformed hyperparameter value: {values[pos:]}")
        pos = match.end()
        name, index, raw = match.group("name"), match.group("index"), match.group("value")
        if name not in type_map:
            if ignore_unknown:
                continue
            raise ValueError(f"Unknown hyperparameter type for {name}")
        kind = type_map[name]
        if index is not None:
            slot = results.setdefault(name, {})
            if not isinstance(slot, dict) or int(index) in slot:
                raise ValueError(f"Multiple assignments to variable '{name}[{index}]' in "
                                 f"{values}")
            slot[int(index)] = _convert(name, raw, kind, values)
            continue
        if name in results:
            raise ValueError(f"Multiple assignments to variable '{name}' in {values}")
        raw = raw.strip()
        if raw.startswith("["):
            results[name] = [_convert(name, item, kind, values)
                             for item in raw[1:-1].split(",") if item.strip()]
        else:
            results[name] = _convert(name, raw, kind, values)
    return results
