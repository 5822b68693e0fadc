"""`tf.keras.layers.DenseFeatures` as a Keras 3 layer over `tf.feature_column` columns.

Keras 3 dropped the layer; TensorFlow 2.21 still ships the columns. Each column creates its
state (embedding tables, ...) through a state manager that makes Keras 3 weights of this layer,
under the column's name scope, so a model_fn's checkpoint keeps tf.keras' names
(`dense_features/x_embedding/embedding_weights`) and a Keras 3 model trains them. Output: the
columns' dense tensors, sorted by column name, flattened and concatenated, as tf.keras did.
"""
import keras
import tensorflow as tf
from tensorflow.python.feature_column import feature_column as fc_v1
from tensorflow.python.feature_column import feature_column_v2 as fc
from tensorflow.python.feature_column import feature_column_v2_types as fc_types


class LayerStateManager(fc.StateManager):
    """Column state as weights of one Keras 3 layer (tf.keras' `_StateManagerImplV2`'s role)."""

    def __init__(self, layer, trainable):
        self._layer, self._trainable = layer, trainable
        self._variables, self._resources = {}, {}

    def create_variable(self, feature_column, name, shape, dtype=None, trainable=True,
                        use_resource=True, initializer=None):
        key = (feature_column.name, name)
        if key in self._variables:
            raise ValueError(f"Variable {name!r} of column {feature_column.name!r} exists.")
        init = initializer
        if init is not None:
            init = lambda shape, dtype=None, _i=initializer: _i(shape, dtype=dtype)  # noqa: E731
        layer = self._layer
        # add_weight would reset the Keras path to the layer's: the column's scope goes between
        # A layer built by a canned model (RNNEstimator) names its state from the top, as
        # tf.estimator did (`sequence_features/...`, not `rnn_model/sequence_features/...`).
        top = {"override_parent": ""} if getattr(layer, "top_level_names", False) else \
            {"caller": layer}
        with keras.name_scope(layer.name, **top), \
                keras.name_scope(scope_name(feature_column)):
            variable = keras.Variable(
                initializer=init or "glorot_uniform", shape=tuple(shape),
                dtype=tf.as_dtype(dtype or tf.float32).name,
                trainable=self._trainable and trainable, name=name)
        layer._track_variable(variable)
        self._variables[key] = variable
        return variable

    def add_variable(self, feature_column, var):
        self._variables[(feature_column.name, var.name)] = var

    def get_variable(self, feature_column, name):
        variable = self._variables[(feature_column.name, name)]
        return getattr(variable, "value", variable)  # the tf.Variable for TF's column ops

    def add_resource(self, feature_column, name, resource):
        self._resources[(feature_column.name, name)] = resource
        return resource

    def has_resource(self, feature_column, name):
        return (feature_column.name, name) in self._resources

    def get_resource(self, feature_column, name):
        return self._resources[(feature_column.name, name)]


def scope_name(column):
    """A column name as a name scope (tf.keras replaced characters scopes reject)."""
    return fc._sanitize_column_name_for_variable_scope(column.name)


class ColumnsLayer(keras.layers.Layer):
    """A Keras 3 layer over feature columns: checks them, keeps them sorted by name (tf.keras'
    order), and makes their state once, as this layer's weights."""

    column_type, what = fc.DenseColumn, "dense columns (numeric, bucketized, embedding, " \
        "indicator); wrap a categorical column in tf.feature_column.indicator_column or " \
        "embedding_column"

    def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        # one column alone (columns are namedtuples: not a list of their fields), or any
        # iterable of them (a dict's values)
        columns = [feature_columns] if isinstance(
            feature_columns, (fc_types.FeatureColumn, fc_v1._FeatureColumn)) else list(feature_columns)
        if not columns:
            raise ValueError(f"{type(self).__name__} needs at least one feature column, "
                             "given none.")
        for column in columns:
            if not isinstance(column, self.column_type):
                raise ValueError(f"{type(self).__name__} takes {self.what}; given "
                                 f"{type(column).__name__} {getattr(column, 'name', '')!r}.")
        self._feature_columns = sorted(columns, key=lambda c: c.name)
        self._state_manager = LayerStateManager(self, trainable)
        self._state_made = False

    def _make_state(self):
        if not self._state_made:
            for column in self._feature_columns:
                column.create_state(self._state_manager)
            self._state_made = True

    def build(self, input_shape=None):
        self._make_state()
        self.built = True

    def _check_dict(self, features):
        if not isinstance(features, dict):
            raise ValueError(f"{type(self).__name__} expects a dict of features, given "
                             f"{features!r}.")
        self._make_state()
        return fc.FeatureTransformationCache(features)


class DenseFeatures(ColumnsLayer):
    """Produces a dense tensor from a dict of features by `tf.feature_column` columns."""

    def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
        super().__init__(feature_columns, trainable, name or "dense_features", **kwargs)

    def __call__(self, features, *args, cols_to_output_tensors=None, **kwargs):
        """`cols_to_output_tensors` is filled with each column's tensor, as in tf.keras (kept
        out of Keras 3's call arguments and attribute tracking, which would copy the dict)."""
        self.__dict__["_cols_to_output_tensors"] = cols_to_output_tensors
        if isinstance(features, dict):  # python lists / numpy values, as tf.keras took them
            features = {k: v if isinstance(v, (tf.Tensor, tf.SparseTensor, tf.RaggedTensor))
                        or tf.is_tensor(v) else tf.convert_to_tensor(v)
                        for k, v in features.items()}
        try:
            return super().__call__(features, *args, **kwargs)
        finally:
            self.__dict__["_cols_to_output_tensors"] = None

    def call(self, features, training=None):
        cols_to_output_tensors = self.__dict__.get("_cols_to_output_tensors")
        cache = self._check_dict(features)
        outputs = []
        for column in self._feature_columns:
            with tf.name_scope(scope_name(column)):
                tensor = column.get_dense_tensor(cache, self._state_manager)
                tensor = tf.reshape(tensor, (tf.shape(tensor)[0],
                                             column.variable_shape.num_elements()))
                outputs.append(tensor)
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = tensor
        return tf.concat(outputs, axis=-1)

    def compute_output_shape(self, input_shape):
        width = sum(c.variable_shape.num_elements() for c in self._feature_columns)
        batch = next(iter(input_shape.values()))[0] if isinstance(input_shape, dict) else None
        return (batch, width)

    def get_config(self):
        config = super().get_config()
        config["feature_columns"] = tf.feature_column.serialize_feature_columns(
            self._feature_columns) if hasattr(tf.feature_column, "serialize_feature_columns") \
            else [c.name for c in self._feature_columns]
        return config
