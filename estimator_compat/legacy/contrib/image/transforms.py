"""contrib.image's projective transforms: `transform`, `rotate`, `translate` on TensorFlow's
`ImageProjectiveTransformV2` kernel (zeros outside the image, as TF 1.15's kernel filled), and the
helpers making and composing the flat 8-parameter transforms [a0, a1, a2, b0, b1, b2, c0, c1]
(output (x, y) reads input ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1)."""
import tensorflow as tf

_INTERPOLATIONS = ("NEAREST", "BILINEAR")


def _as_batch(images):
    """(images as [batch, height, width, channels], a function restoring the input's rank)."""
    images = tf.convert_to_tensor(images, name="images")
    rank = images.shape.rank
    if rank == 2:
        return images[None, :, :, None], lambda x: x[0, :, :, 0]
    if rank == 3:
        return images[None], lambda x: x[0]
    if rank == 4:
        return images, lambda x: x
    raise TypeError(f"Images should have rank between 2 and 4, got shape {images.shape}")


def transform(images, transforms, interpolation="NEAREST", output_shape=None, name=None):
    """Apply one flat transform ([8]) or one per image ([batch, 8]) to `images`."""
    with tf.name_scope(name or "transform"):
        batch, restore = _as_batch(images)
        interpolation = interpolation.upper()
        if interpolation not in _INTERPOLATIONS:
            raise ValueError(f"interpolation must be one of {_INTERPOLATIONS}, got "
                             f"{interpolation!r}")
        if output_shape is None:
            output_shape = tf.shape(batch)[1:3]
        output_shape = tf.convert_to_tensor(output_shape, tf.int32, name="output_shape")
        if output_shape.shape.as_list() != [2]:
            raise ValueError(f"output_shape must be [height, width], got {output_shape}")
        transforms = tf.convert_to_tensor(transforms, tf.float32, name="transforms")
        if transforms.shape.rank == 1:
            transforms = transforms[None]
        elif transforms.shape.rank != 2:
            raise TypeError(f"Transforms should have rank 1 or 2, got shape {transforms.shape}")
        out = tf.raw_ops.ImageProjectiveTransformV2(
            images=batch, transforms=transforms, output_shape=output_shape,
            interpolation=interpolation, fill_mode="CONSTANT")
        return restore(out)


def angles_to_projective_transforms(angles, image_height, image_width, name=None):
    """Flat transforms rotating images counterclockwise by `angles` (radians) about their
    centres."""
    with tf.name_scope(name or "angles_to_projective_transforms"):
        angles = tf.convert_to_tensor(angles, tf.float32)
        if angles.shape.rank == 0:
            angles = angles[None]
        elif angles.shape.rank != 1:
            raise TypeError(f"Angles should have rank 0 or 1, got shape {angles.shape}")
        h = tf.cast(image_height, tf.float32) - 1
        w = tf.cast(image_width, tf.float32) - 1
        cos, sin = tf.cos(angles), tf.sin(angles)
        x_offset = (w - (cos * w - sin * h)) / 2.0
        y_offset = (h - (sin * w + cos * h)) / 2.0
        zeros = tf.zeros_like(angles)
        return tf.stack([cos, -sin, x_offset, sin, cos, y_offset, zeros, zeros], axis=1)


def rotate(images, angles, interpolation="NEAREST", name=None):
    """Rotate images counterclockwise by `angles` (radians; one, or one per image)."""
    with tf.name_scope(name or "rotate"):
        batch, restore = _as_batch(images)
        shape = tf.cast(tf.shape(batch), tf.float32)
        transforms = angles_to_projective_transforms(angles, shape[1], shape[2])
        return restore(transform(batch, transforms, interpolation=interpolation))


def translations_to_projective_transforms(translations, name=None):
    """Flat transforms shifting images by [dx, dy] (one, or one per image)."""
    with tf.name_scope(name or "translations_to_projective_transforms"):
        translations = tf.convert_to_tensor(translations, tf.float32)
        if translations.shape.rank == 1:
            translations = translations[None]
        elif translations.shape.rank != 2:
            raise TypeError(f"Translations should have rank 1 or 2, got shape "
                            f"{translations.shape}")
        n = tf.shape(translations)[0]
        ones, zeros = tf.ones([n]), tf.zeros([n])
        return tf.stack([ones, zeros, -translations[:, 0], zeros, ones, -translations[:, 1],
                         zeros, zeros], axis=1)


def translate(images, translations, interpolation="NEAREST", name=None):
    """Shift images by `translations` ([dx, dy] pixels)."""
    with tf.name_scope(name or "translate"):
        return transform(images, translations_to_projective_transforms(translations),
                         interpolation=interpolation)


def flat_transforms_to_matrices(transforms):
    """[N, 8] flat transforms -> [N, 3, 3] matrices."""
    with tf.name_scope("flat_transforms_to_matrices"):
        transforms = tf.convert_to_tensor(transforms, name="transforms")
        if transforms.shape.rank not in (1, 2):
            raise ValueError(f"Transforms should be 1D or 2D, got shape {transforms.shape}")
        flat = tf.reshape(transforms, [-1, 8])
        ones = tf.ones_like(flat[:, :1])
        return tf.reshape(tf.concat([flat, ones], axis=1), [-1, 3, 3])


def matrices_to_flat_transforms(transform_matrices):
    """[N, 3, 3] matrices -> [N, 8] flat transforms (normalized so the last entry is 1)."""
    with tf.name_scope("matrices_to_flat_transforms"):
        matrices = tf.convert_to_tensor(transform_matrices, name="transform_matrices")
        if matrices.shape.rank not in (2, 3):
            raise ValueError(f"Matrices should be 2D or 3D, got shape {matrices.shape}")
        flat = tf.reshape(matrices, [-1, 9])
        return flat[:, :8] / flat[:, 8:9]


def compose_transforms(*transforms):
    """One flat transform doing each of `transforms` in turn (the first applied last to
    output coordinates, as their matrix product)."""
    if not transforms:
        raise ValueError("compose_transforms takes at least one transform")
    with tf.name_scope("compose_transforms"):
        composed = flat_transforms_to_matrices(transforms[0])
        for t in transforms[1:]:
            composed = tf.matmul(composed, flat_transforms_to_matrices(t))
        return matrices_to_flat_transforms(composed)


FUNCTIONS = dict(transform=transform, rotate=rotate, translate=translate,
                 angles_to_projective_transforms=angles_to_projective_transforms,
                 translations_to_projective_transforms=translations_to_projective_transforms,
                 flat_transforms_to_matrices=flat_transforms_to_matrices,
                 matrices_to_flat_transforms=matrices_to_flat_transforms,
                 compose_transforms=compose_transforms)
