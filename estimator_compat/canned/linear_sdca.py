"""`tf.estimator.experimental.LinearSDCA`: the name resolves and its arguments are checked, but
the SDCA optimizer is not implemented yet; a linear estimator given it says so at once (and
what to use meanwhile), rather than failing later or silently training another way."""


class LinearSDCA:
    """Stochastic dual coordinate ascent settings for LinearClassifier / LinearRegressor."""

    def __init__(self, example_id_column, num_loss_partitions=1, num_table_shards=None,
                 symmetric_l1_regularization=0.0, symmetric_l2_regularization=1.0,
                 adaptive=False):
        if not example_id_column:
            raise ValueError("LinearSDCA needs example_id_column, the feature holding a "
                             "unique id per example.")
        if num_loss_partitions < 1:
            raise ValueError(f"num_loss_partitions must be >= 1, given {num_loss_partitions}.")
        self.example_id_column = example_id_column
        self.num_loss_partitions = num_loss_partitions
        self.num_table_shards = num_table_shards
        self.symmetric_l1_regularization = symmetric_l1_regularization
        self.symmetric_l2_regularization = symmetric_l2_regularization
        self.adaptive = adaptive


def check_not_sdca(optimizer):
    if isinstance(optimizer, LinearSDCA):
        raise NotImplementedError(
            "optimizer=LinearSDCA(...) is not implemented by estimator_compat yet (the SDCA "
            "kernels exist in TensorFlow 2.21; the model around them does not here). Meanwhile "
            "use optimizer='Ftrl' (the linear estimators' default) with "
            "tf.keras.optimizers.Ftrl(l1_regularization_strength=..., "
            "l2_regularization_strength=...) for the same regularised linear model.")
