"""Writing configs as libconfig text, the format of conf/*.cfg (https://hyperrealm.github.io/libconfig/).

    >>> print(dumps({"routing": {"mechanism": "min"}, "traffic": {"load": 0.4}}))
    routing = {
      mechanism = "min";
    };
    traffic = {
      load = 0.4;
    };
    <BLANKLINE>

Python dicts become groups, lists of dicts become lists `( ... )` (jobs = (...)), other lists
become arrays `[ ... ]`, str becomes a quoted string (with \\, " and control characters escaped),
bool becomes true/false, int an integer (with an L suffix beyond 32 bits) and float a float that
always carries a decimal point or exponent, so libconfig reads back the same type.
"""

import math
import re

_NAME = re.compile(r"^[A-Za-z\*][-A-Za-z0-9_\*]*$")


class LibconfigError(ValueError):
    """A value libconfig cannot hold (None, NaN, a mixed array, a bad setting name)."""


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r",
            "\f": "\\f"}


def _string(s):
    """s as a libconfig string literal: escapes for backslash, quote and the control
    characters libconfig names, \\xNN for the other control characters."""
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _scalar(value, where):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) + ("L" if not -2**31 <= value < 2**31 else "")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise LibconfigError("%s: libconfig has no %r" % (where, value))
        text = repr(value)
        if "." not in text and "e" not in text and "E" not in text:
            text += ".0"
        return text
    if isinstance(value, str):
        return _string(value)
    raise LibconfigError("%s: cannot write a %s to libconfig" % (where, type(value).__name__))


def _value(value, where, indent):
    pad = "  " * indent
    if isinstance(value, dict):
        lines = ["{"]
        for key, item in value.items():
            lines.append(_setting(key, item, "%s.%s" % (where, key) if where else key,
                                  indent + 1))
        lines.append(pad + "}")
        return "\n".join(lines)
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, (dict, list, tuple)) for v in value):
            # A list: elements of any type (groups, as jobs = ( {...}, {...} )).
            inner = "  " * (indent + 1)
            items = [inner + _value(v, "%s[%d]" % (where, i), indent + 1)
                     for i, v in enumerate(value)]
            return "(\n" + ",\n".join(items) + "\n" + pad + ")" if items else "( )"
        # An array: scalars of one type (ints and floats mixed are written as floats).
        kinds = {("num" if isinstance(v, (int, float)) and not isinstance(v, bool)
                  else type(v).__name__) for v in value}
        if len(kinds) > 1:
            raise LibconfigError("%s: an array mixes types %s" % (where, sorted(kinds)))
        if any(isinstance(v, float) for v in value):
            value = [float(v) for v in value]
        return "[" + ", ".join(_scalar(v, "%s[%d]" % (where, i))
                               for i, v in enumerate(value)) + "]"
    return _scalar(value, where)


def _setting(key, value, where, indent):
    if not isinstance(key, str) or not _NAME.match(key):
        raise LibconfigError("%s: %r is not a libconfig setting name" % (where, key))
    return "  " * indent + "%s = %s;" % (key, _value(value, where, indent))


def dumps(config):
    """The libconfig text of a dict of settings (groups as nested dicts, or dotted keys
    "routing.mechanism" which are nested here)."""
    if not isinstance(config, dict):
        raise LibconfigError("a config is a dict of settings, not a %s" % type(config).__name__)
    return "".join(_setting(k, v, k, 0) + "\n" for k, v in nest(config).items())


def dump(config, path):
    """Write dumps(config) to the file `path`; returns path."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(config))
    return path


def nest(flat):
    """{"routing.mechanism": "min", "sim": {...}} -> nested dicts (dotted keys split; a dotted
    key and a group naming the same setting: the dotted key wins)."""
    out = {}
    for key, value in flat.items():
        if isinstance(value, dict):
            value = nest(value)
        parts = key.split(".") if isinstance(key, str) else [key]
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise LibconfigError("%s: %s is both a value and a group" % (key, part))
        last = parts[-1]
        if isinstance(value, dict) and isinstance(node.get(last), dict):
            node[last] = _merge(node[last], value)
        else:
            node[last] = value
    return out


def _merge(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out
