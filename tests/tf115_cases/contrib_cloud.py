"""tf.contrib.cloud cases (TF 1.15 style, Python 3.7): BlockCacheParams' defaults and given
values; the other names' ops are gone in TensorFlow 2 (declined, tests/test_contrib_cloud.py)."""


def case_block_cache_params(tf):
    cloud = tf.contrib.cloud
    default = cloud.BlockCacheParams()
    given = cloud.BlockCacheParams(block_size=4096, max_bytes=10000, max_staleness=7)
    only_block = cloud.BlockCacheParams(block_size=1000)
    zeros = cloud.BlockCacheParams(block_size=0, max_bytes=0, max_staleness=0)
    return {name: tf.constant([p.block_size, p.max_bytes, p.max_staleness], tf.int64)
            for name, p in (("default", default), ("given", given),
                            ("only_block", only_block), ("zeros", zeros))}
