"""The TreeEnsemble and DebugOutput protos of tf.estimator's boosted trees checkpoints.

tf.estimator saved the ensemble as `boosted_trees:0_serialized`, a serialized
`tensorflow.boosted_trees.TreeEnsemble`; TensorFlow 2.21 no longer ships that message, so
its wire format (field names and numbers) is declared here, and our checkpoints hold the same
bytes tf.estimator 2.8 wrote for the same trees.
"""
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_F = descriptor_pb2.FieldDescriptorProto
_OPT, _REP = _F.LABEL_OPTIONAL, _F.LABEL_REPEATED
_INT32, _INT64, _FLOAT, _BOOL, _MSG, _ENUM = (_F.TYPE_INT32, _F.TYPE_INT64, _F.TYPE_FLOAT,
                                              _F.TYPE_BOOL, _F.TYPE_MESSAGE, _F.TYPE_ENUM)
_PACKAGE = "tensorflow.boosted_trees"

# message: [(field, number, type, label, message or enum type, oneof index)]
_MESSAGES = {
    "Node": ([("leaf", 1, _MSG, _OPT, "Leaf", 0), ("bucketized_split", 2, _MSG, _OPT,
              "BucketizedSplit", 0), ("categorical_split", 3, _MSG, _OPT, "CategoricalSplit", 0),
              ("dense_split", 4, _MSG, _OPT, "DenseSplit", 0),
              ("metadata", 777, _MSG, _OPT, "NodeMetadata", None)], ["node"]),
    "NodeMetadata": ([("gain", 1, _FLOAT, _OPT, None, None),
                      ("original_leaf", 2, _MSG, _OPT, "Leaf", None)], []),
    "Leaf": ([("vector", 1, _MSG, _OPT, "Vector", 0),
              ("sparse_vector", 2, _MSG, _OPT, "SparseVector", 0),
              ("scalar", 3, _FLOAT, _OPT, None, None)], ["leaf"]),
    "Vector": ([("value", 1, _FLOAT, _REP, None, None)], []),
    "SparseVector": ([("index", 1, _INT32, _REP, None, None),
                      ("value", 2, _FLOAT, _REP, None, None)], []),
    "BucketizedSplit": ([("feature_id", 1, _INT32, _OPT, None, None),
                         ("threshold", 2, _INT32, _OPT, None, None),
                         ("dimension_id", 5, _INT32, _OPT, None, None),
                         ("default_direction", 6, _ENUM, _OPT, "DefaultDirection", None),
                         ("left_id", 3, _INT32, _OPT, None, None),
                         ("right_id", 4, _INT32, _OPT, None, None)], []),
    "CategoricalSplit": ([("feature_id", 1, _INT32, _OPT, None, None),
                          ("value", 2, _INT32, _OPT, None, None),
                          ("dimension_id", 5, _INT32, _OPT, None, None),
                          ("left_id", 3, _INT32, _OPT, None, None),
                          ("right_id", 4, _INT32, _OPT, None, None)], []),
    "DenseSplit": ([("feature_id", 1, _INT32, _OPT, None, None),
                    ("threshold", 2, _FLOAT, _OPT, None, None),
                    ("left_id", 3, _INT32, _OPT, None, None),
                    ("right_id", 4, _INT32, _OPT, None, None)], []),
    "Tree": ([("nodes", 1, _MSG, _REP, "Node", None)], []),
    "PostPruneNodeUpdate": ([("new_node_id", 1, _INT32, _OPT, None, None),
                             ("logit_change", 2, _FLOAT, _REP, None, None)], []),
    "TreeMetadata": ([("num_layers_grown", 2, _INT32, _OPT, None, None),
                      ("is_finalized", 3, _BOOL, _OPT, None, None),
                      ("post_pruned_nodes_meta", 4, _MSG, _REP, "PostPruneNodeUpdate", None)],
                     []),
    "GrowingMetadata": ([("num_trees_attempted", 1, _INT64, _OPT, None, None),
                         ("num_layers_attempted", 2, _INT64, _OPT, None, None),
                         ("last_layer_node_start", 3, _INT32, _OPT, None, None),
                         ("last_layer_node_end", 4, _INT32, _OPT, None, None)], []),
    "TreeEnsemble": ([("trees", 1, _MSG, _REP, "Tree", None),
                      ("tree_weights", 2, _FLOAT, _REP, None, None),
                      ("tree_metadata", 3, _MSG, _REP, "TreeMetadata", None),
                      ("growing_metadata", 4, _MSG, _OPT, "GrowingMetadata", None)], []),
    "DebugOutput": ([("feature_ids", 1, _INT32, _REP, None, None),
                     ("logits_path", 2, _FLOAT, _REP, None, None),
                     ("leaf_node_ids", 3, _INT32, _REP, None, None)], []),
}
_ENUMS = {"DefaultDirection": [("DEFAULT_LEFT", 0), ("DEFAULT_RIGHT", 1)]}


def _file():
    proto = descriptor_pb2.FileDescriptorProto(
        name="estimator_compat/boosted_trees.proto", package=_PACKAGE, syntax="proto3")
    for name, values in _ENUMS.items():
        enum = proto.enum_type.add(name=name)
        for value_name, number in values:
            enum.value.add(name=value_name, number=number)
    for name, (fields, oneofs) in _MESSAGES.items():
        message = proto.message_type.add(name=name)
        for oneof in oneofs:
            message.oneof_decl.add(name=oneof)
        for field, number, kind, label, type_name, oneof in fields:
            f = message.field.add(name=field, number=number, type=kind, label=label)
            if type_name is not None:
                f.type_name = f".{_PACKAGE}.{type_name}"
            if oneof is not None:
                f.oneof_index = oneof
            if label == _REP and kind in (_INT32, _INT64, _FLOAT):
                f.options.packed = True
    return proto


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_file())
TreeEnsemble = message_factory.GetMessageClass(
    _POOL.FindMessageTypeByName(f"{_PACKAGE}.TreeEnsemble"))
DebugOutput = message_factory.GetMessageClass(
    _POOL.FindMessageTypeByName(f"{_PACKAGE}.DebugOutput"))
