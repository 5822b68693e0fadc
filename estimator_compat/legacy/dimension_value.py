"""`shape[i].value` in TF 1.x code, on TensorFlow 2's shapes.

TF1 shapes held `Dimension` objects, read with `.value`; TF2's hold plain ints (or None), which
have no `.value`. TensorFlow's switch back (`disable_v2_tensorshape`) is process-wide and breaks
Keras 3, so instead the user's own modules are compiled with every `x.value` read turned into
`__ec_dimension_value__(x)`: the int itself for an int or None, `x.value` for anything else.
"""
import ast

NAME = "__ec_dimension_value__"


def dimension_value(obj):
    """`obj.value`, where a TF2 dimension (int or None) is its own value."""
    if obj is None or type(obj) is int:
        return obj
    return obj.value


class _ValueReads(ast.NodeTransformer):
    def visit_Attribute(self, node):
        self.generic_visit(node)
        if node.attr != "value" or not isinstance(node.ctx, ast.Load):
            return node
        call = ast.Call(func=ast.Name(id=NAME, ctx=ast.Load()), args=[node.value], keywords=[])
        return ast.copy_location(call, node)


def compile_source(source, path):
    """Code for `source` with `.value` reads routed through `dimension_value`."""
    tree = _ValueReads().visit(ast.parse(source, filename=path))
    return compile(ast.fix_missing_locations(tree), path, "exec", dont_inherit=True)
