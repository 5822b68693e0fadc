"""`Layer.get_updates_for` / `get_losses_for`: tf.keras (TF 2.0-2.3) names a model_fn called.

The TF 2.x migration guide's model_fn over a Keras model ran
`update_ops = model.get_updates_for(None) + model.get_updates_for(features)` and
`reg_losses = model.get_losses_for(None) + model.get_losses_for(features)`; Keras 3 has
neither. Keras 3 layers apply their updates (BatchNormalization's moving statistics) as they
are called, so in a model_fn's trace none are left to group into the train_op:
`get_updates_for` gives `[]`. `get_losses_for(None)` gives the losses that do not depend on an
input (the weights' regularizers), `get_losses_for(inputs)` those the calls added (activity
regularizers, `add_loss`), so the two together are `model.losses`, as in tf.keras.
"""
import keras


def get_updates_for(self, inputs):
    """Update ops still to run for `inputs`: none, Keras 3 layers update as they are called."""
    return []


def get_losses_for(self, inputs):
    """The regularizers' losses (inputs=None), else the losses the layer's calls added."""
    if inputs is None:
        return self._get_regularization_losses()
    losses = self._get_own_losses()
    for layer in self._flatten_layers(include_self=False):
        losses.extend(layer._get_own_losses())
    return losses


def use():
    """Adds the two methods to keras.layers.Layer where Keras has none of its own."""
    for name, method in (("get_updates_for", get_updates_for),
                         ("get_losses_for", get_losses_for)):
        if not hasattr(keras.layers.Layer, name):
            setattr(keras.layers.Layer, name, method)
